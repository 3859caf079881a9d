import Foundation
import Testing

/// `scripts/run` shows that a long build still runs (README, "Set-up"): a first build on a small machine
/// spends minutes in single steps that print nothing.
@Suite("scripts/run: progress during the build")
struct RunScriptProgressTests {
    @Test("a build step that prints nothing for a while gets a 'still building' line; the bridge then starts")
    func quietStep() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("run-progress-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let binaries = folder.appendingPathComponent("bin").path
        // A `swift` whose build has one step that stays quiet for 3 s, then makes a `vivabridge` that
        // prints how it was started.
        let swift = folder.appendingPathComponent("swift")
        try """
        #!/bin/sh
        case "$*" in
        "build --product vivabridge")
            echo "[1/2] Compiling Slow Slow.swift"
            sleep 3
            echo "[2/2] Linking vivabridge"
            mkdir -p "\(binaries)"
            printf '#!/bin/sh\\necho "stub bridge: $*"\\n' >"\(binaries)/vivabridge"
            chmod +x "\(binaries)/vivabridge" ;;
        "build --show-bin-path") echo "\(binaries)" ;;
        *) echo "stub swift: $*" >&2; exit 2 ;;
        esac
        """.write(to: swift, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)
        let path = folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let run = try ChildProcess(
            ["--config", "x.yaml"], environment: ["PATH": path, "RUN_PROGRESS_SECONDS": "1"],
            program: ShippedConfigurationTests.root.appendingPathComponent("scripts/run"))
        #expect(run.waitForExit(timeout: 60) == 0, "\(run.errorOutput)")
        #expect(run.output.contains("run: still building at [1/2]:"), "\(run.output)")
        #expect(run.output.contains("stub bridge: run --config x.yaml"), "\(run.output)")
    }
}
