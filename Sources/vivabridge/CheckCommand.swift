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
            exits 2 and prints every problem, one a line (the key and the rule), when it would be refused. Nothing is bound \
            and no journal is opened, so it can be run beside a running bridge.
            """
    )

    @Option(name: .long, help: "The YAML configuration file to check.")
    var config: String

    func run() throws {
        let (configuration, problems) = BridgeConfiguration.check(
            file: config, environment: ProcessInfo.processInfo.environment)
        guard problems.all.isEmpty else {
            var lines = ["vivabridge: configuration refused: \(config): \(problems.all.count) problem(s)"]
            lines += problems.all.map { "  \($0)" }
            FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            throw ExitCode(2)
        }
        var lines = ["configuration OK: \(config): \(configuration.lanes.count) lane(s)"]
        for lane in configuration.lanes {
            lines.append("  lane \(lane.id) (\(lane.platform.rawValue)) -> \(lane.endpoint)")
        }
        print(lines.joined(separator: "\n"))
    }
}
