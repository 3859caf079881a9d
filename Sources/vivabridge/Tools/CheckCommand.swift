import ArgumentParser
import Bridge
import Foundation

/// `vivabridge check`: validates a configuration as `run` would, binding nothing and opening no journal.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a configuration file (and VIVABRIDGE_ variables) without running anything.",
        discussion: """
            Exits 0 and prints "configuration OK" with the lanes when `run --config FILE` would accept it; \
            exits 2 and prints every problem, one a line (the key and the rule), when it would be refused. A VIVABRIDGE_ \
            variable that names no key is ignored, with a warning naming the nearest valid variable when it resembles \
            one; one in a key's old spelling (its words run together) is read, with a warning naming the variable to \
            use (docs/CONFIG.md). Nothing is bound and no journal is opened, so it can be run beside a running bridge.
            """
    )

    @Option(name: .long, help: "The YAML configuration file to check.")
    var config: String

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let (configuration, problems) = BridgeConfiguration.check(file: config, environment: environment)
        let warnings = BridgeConfiguration.environmentWarnings(environment).map { "vivabridge: warning: \($0)\n" }
        FileHandle.standardError.write(Data(warnings.joined().utf8))
        guard problems.all.isEmpty else {
            var lines = ["vivabridge: configuration refused: \(config): \(problems.all.count) problem(s)"]
            lines += problems.all.map { "  \($0)" }
            FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            throw ExitCode(2)
        }
        if let shortfall = DescriptorLimit.shortfall(
            lanes: configuration.lanes.count, limit: DescriptorLimit.current().hard)
        {
            FileHandle.standardError.write(Data("vivabridge: warning: \(shortfall)\n".utf8))
        }
        var lines = ["configuration OK: \(config): \(configuration.lanes.count) lane(s)"]
        for lane in configuration.lanes {
            lines.append("  lane \(lane.id) (\(lane.platform.rawValue)) -> \(lane.endpoint)")
        }
        if let cloud = configuration.vivaCloud { lines.append("  \(cloud.summary)") }
        if configuration.journalIsShared {
            lines.append(
                "  journal \(JournalStores.location(of: configuration.journal)): shared; this bridge is "
                    + "\(configuration.instanceName), active while it holds the lease (leaseMs \(configuration.leaseMs))"
            )
        }
        print(lines.joined(separator: "\n"))
    }
}
