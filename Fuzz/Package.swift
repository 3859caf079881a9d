// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for vivabridge's parsers: one executable per target, each built with
// `-sanitize=fuzzer` by scripts/fuzz (never by the main package's `swift build`).
let package = Package(
    name: "vivabridge-fuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "vivabridge", path: "..")],
    targets: [
        .target(name: "FuzzSupport"),
        .executableTarget(
            name: "FuzzCommandDecoder",
            dependencies: ["FuzzSupport", .product(name: "InterApp", package: "vivabridge")]),
        .executableTarget(
            name: "FuzzJSONParser", dependencies: ["FuzzSupport", .product(name: "InterApp", package: "vivabridge")]),
        .executableTarget(
            name: "FuzzCallbackParser",
            dependencies: ["FuzzSupport", .product(name: "InterApp", package: "vivabridge")]),
        .executableTarget(
            name: "FuzzConfigLoader", dependencies: ["FuzzSupport", .product(name: "Bridge", package: "vivabridge")]),
    ],
    swiftLanguageModes: [.v6]
)
