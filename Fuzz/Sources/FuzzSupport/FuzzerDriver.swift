#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// A fuzz target's test function: libFuzzer's `LLVMFuzzerTestOneInput`.
public typealias FuzzTest = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

@_silgen_name("LLVMFuzzerRunDriver")
private func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: FuzzTest
) -> CInt

/// Runs libFuzzer's driver on `test` with the process's arguments (`-max_total_time=…`, corpus folders…) and
/// exits with its status.
///
/// SwiftPM gives every executable target its own entry point (`main` becomes `<Target>_main`), so libFuzzer's
/// own `main` is never linked: each target's `@main` calls this instead.
public func runFuzzer(_ test: FuzzTest) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    let status = withUnsafeMutablePointer(to: &argv) { llvmFuzzerRunDriver(&argc, $0, test) }
    exit(status)
}
