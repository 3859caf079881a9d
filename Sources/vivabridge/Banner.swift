import Bridge
import Foundation

/// What `vivabridge run` prints once it listens: where, and what to try next.
enum Banner {
    static func print(bound: BoundEndpoints, configuration: BridgeConfiguration, embedded: Bool) {
        var lines = [
            "vivabridge is running\(embedded ? " on its embedded default (simulated lanes)" : "").",
            "  commands (ROUTER): \(bound.command)",
            "  events   (PUB):    \(bound.events)",
        ]
        if let pull = bound.commandPull { lines.append("  commands (PULL):   \(pull)") }
        lines.append("  journal:          \(configuration.journal)")
        for lane in configuration.lanes {
            lines.append("  lane \(lane.id) (\(lane.platform.rawValue)) -> \(lane.endpoint)")
        }
        if let first = configuration.lanes.first {
            lines += [
                "Try next, in another terminal:",
                "  swift run vivabridge watch",
                "  swift run vivabridge send sale --lane \(first.id) --amount 12.00",
                "Stop with Ctrl-C.",
            ]
        }
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
