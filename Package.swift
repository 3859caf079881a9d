// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "vivabridge",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "vivabridge", targets: ["vivabridge"]),
        .library(name: "ZeroMQ", targets: ["ZeroMQ"]),
        .library(name: "InterApp", targets: ["InterApp"]),
        .library(name: "BridgeClient", targets: ["BridgeClient"]),
        .library(name: "BridgeCore", targets: ["BridgeCore"]),
        .library(name: "BridgeJournal", targets: ["BridgeJournal"]),
        .library(name: "JournalSQLite", targets: ["JournalSQLite"]),
        .library(name: "JournalPostgres", targets: ["JournalPostgres"]),
        .library(name: "JournalTools", targets: ["JournalTools"]),
        .library(name: "BridgeObservability", targets: ["BridgeObservability"]),
        .library(name: "Bridge", targets: ["Bridge"]),
        .library(name: "BridgeHTTP", targets: ["BridgeHTTP"]),
        .library(name: "TerminalSimulator", targets: ["TerminalSimulator"]),
        .library(name: "VivaCloud", targets: ["VivaCloud"]),
        .executable(name: "vivabridge-bench", targets: ["vivabridge-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.4.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        // Viva's cloud (VivaCloud): OAuth2 and the transaction look-ups over HTTPS.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // A cloud session's id: a name-based UUID (SHA-1) of the journal's identity and the command's id.
        .package(url: "https://github.com/apple/swift-crypto", "3.9.0"..<"6.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CZeroMQ",
            pkgConfig: "libzmq",
            providers: [.apt(["libzmq3-dev"])]
        ),
        .target(name: "ZeroMQ", dependencies: ["CZeroMQ"], swiftSettings: strict),
        // Valgrind's client requests (vendored): the benchmark's instruction workload marks its counted sales.
        .target(name: "CCallgrind"),
        .target(name: "InterApp", swiftSettings: strict),
        .target(name: "BridgeClient", dependencies: ["ZeroMQ", "InterApp"], swiftSettings: strict),
        // The wire contract's schemas, embedded in the binary (`vivabridge schema`); the files are links to schema/.
        .target(
            name: "ContractSchema",
            resources: [
                .embedInCode("command.schema.json"), .embedInCode("reply.schema.json"),
                .embedInCode("event.schema.json"), .embedInCode("relay.schema.json"),
                .embedInCode("export.schema.json"), .embedInCode("vivabridge.asyncapi.yaml"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "TerminalSimulator",
            dependencies: [
                "ZeroMQ", "InterApp", .product(name: "Logging", package: "swift-log"),
                // The simulated back office (Cloud/): Viva's cloud calls on loopback.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // Viva's records and a cloud session's rules as values: what the bridge's core reads of Viva, with no HTTP client.
        .target(
            name: "VivaCloudModels",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        // Viva's cloud: OAuth2 client credentials, the transaction look-ups and the Cloud Terminal calls.
        // No dependency on the bridge's core.
        .target(
            name: "VivaCloud",
            dependencies: [
                "VivaCloudModels",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The bridge's rules: the correlator, its effects and events, the command store and the journal's seam.
        // No socket, file, database or metrics library: testable without any of them.
        .target(
            name: "BridgeCore",
            dependencies: [
                "InterApp", "VivaCloudModels",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strict
        ),
        // The journal's schema, store-neutral: its rows and SQL text, its errors, the export's format. No database
        // library: each store is a target of its own behind BridgeCore's JournalStore.
        .target(
            name: "BridgeJournal",
            dependencies: ["BridgeCore", "InterApp", "VivaCloudModels"],
            swiftSettings: strict
        ),
        // The SQLite store (GRDB) behind BridgeCore's JournalStore, with fill-gap (which the bridge runs too) and
        // reconcile's reading.
        .target(
            name: "JournalSQLite",
            dependencies: [
                "BridgeCore", "BridgeJournal", "InterApp", "VivaCloudModels", "ZeroMQ",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The PostgreSQL store (PostgresNIO) behind the same seam, with its lease (BridgeCore's JournalLeasing).
        // Shares the journal's rows and SQL (BridgeJournal) with SQLite, not its code.
        .target(
            name: "JournalPostgres",
            dependencies: [
                "BridgeCore", "BridgeJournal", "InterApp", "ZeroMQ",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The journal tools only the command line runs (`vivabridge journal …`): export, backup, prune, start anew,
        // the maintenance checks and the unknown list, on either store. The bridge itself never links them.
        .target(
            name: "JournalTools",
            dependencies: [
                "BridgeCore", "BridgeJournal", "JournalSQLite", "JournalPostgres", "InterApp",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: strict
        ),
        // What the bridge shows of itself: its Prometheus metrics, the state /readyz and the lanes page read, the
        // event tap for /events viewers.
        .target(
            name: "BridgeObservability",
            dependencies: [
                "BridgeCore", "InterApp",
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict
        ),
        // The service around the core: the loop, ZeroMQ I/O, the journal writer, the lease, configuration.
        .target(
            name: "Bridge",
            dependencies: [
                "BridgeCore", "BridgeJournal", "JournalSQLite", "JournalPostgres", "BridgeObservability", "ZeroMQ",
                "InterApp",
                "VivaCloud",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "BridgeHTTP",
            dependencies: [
                "Bridge", "InterApp", "ZeroMQ",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            // The lanes page (`/`), embedded in the binary as the schemas are.
            resources: [.embedInCode("lanes.html")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "vivabridge",
            dependencies: [
                "ZeroMQ", "InterApp", "Bridge", "BridgeClient", "BridgeHTTP", "JournalTools", "TerminalSimulator",
                "ContractSchema",
                "VivaCloud",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "vivabridge-bench",
            dependencies: [
                "Bridge", "BridgeClient", "BridgeHTTP", "TerminalSimulator", "InterApp", "ZeroMQ",
                // The postgres section starts its own cluster, as the tests do.
                "LocalPostgres", "CCallgrind",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Benchmarks",
            swiftSettings: strict
        ),
        // Free loopback ports, and a PostgreSQL 15 cluster of a process's own: for the tests and the benchmark, never
        // a dependency of the bridge.
        .target(name: "LoopbackPorts", swiftSettings: strict),
        .target(name: "LocalPostgres", dependencies: ["LoopbackPorts"], swiftSettings: strict),
        .testTarget(name: "ZeroMQTests", dependencies: ["ZeroMQ", "LoopbackPorts"], swiftSettings: strict),
        .testTarget(
            name: "InterAppTests",
            dependencies: ["InterApp", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "VivaCloudTests",
            dependencies: ["VivaCloud", "TerminalSimulator", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "TerminalSimulatorTests",
            dependencies: ["TerminalSimulator", "ZeroMQ"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "BridgeTests",
            dependencies: [
                "Bridge", "BridgeCore", "BridgeJournal", "JournalSQLite", "JournalPostgres", "JournalTools",
                "BridgeObservability",
                "BridgeClient",
                "BridgeHTTP",
                "TerminalSimulator", "ZeroMQ",
                "InterApp", "LoopbackPorts", "LocalPostgres", "VivaCloud",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The benchmark's instruction workload (scripts/bench-instructions) runs.
        .testTarget(name: "BenchmarksTests", dependencies: ["vivabridge-bench"], swiftSettings: strict),
        .testTarget(
            name: "VivabridgeCLITests",
            dependencies: [
                "vivabridge", "Bridge", "JournalTools", "BridgeObservability", "BridgeClient", "TerminalSimulator",
                "InterApp",
                "ZeroMQ",
                "ContractSchema", "LocalPostgres", "LoopbackPorts",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
