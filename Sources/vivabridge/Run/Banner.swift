import Bridge
import Foundation

/// What `vivabridge run` prints once it listens: where, and what to try next.
enum Banner {
    static func print(bound: BoundEndpoints, configuration: BridgeConfiguration, embedded: Bool) {
        var lines = [
            "vivabridge is running\(embedded ? " on its embedded default (simulated lanes)" : "").",
            "  commands (ROUTER): \(bound.command)",
            "  events   (XPUB):   \(bound.events)",
        ]
        if let pull = bound.commandPull { lines.append("  commands (PULL):   \(pull)") }
        lines.append("  journal:          \(JournalStores.location(of: configuration.journal))")
        for lane in configuration.lanes {
            lines.append("  lane \(lane.id) (\(lane.platform.rawValue)) -> \(lane.endpoint)")
        }
        if let first = configuration.lanes.first {
            // The hints carry the real endpoints whenever they are not the defaults the tools assume.
            let command =
                bound.command == ClientEndpointOptions.defaultCommand ? "" : " --command-endpoint \(bound.command)"
            let events = bound.events == ClientEndpointOptions.defaultEvents ? "" : " --events-endpoint \(bound.events)"
            let tool = toolName(invokedAs: CommandLine.arguments.first ?? "vivabridge")
            lines += [
                "Try next, in another terminal:",
                "  \(tool) watch\(events)\(command)",
                "  \(tool) send sale --lane \(first.id) --amount 12.00\(command)",
                "Stop with Ctrl-C.",
            ]
        }
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// How the hints name this binary: as it was started when that was a path (scripts/run starts it by its
    /// full path, so the hints work from any terminal without a second build), else `vivabridge` (on PATH).
    /// Never `swift run`: several of those at once wait on SwiftPM's build lock and check the build again.
    static func toolName(invokedAs argument0: String) -> String {
        argument0.contains("/") ? argument0 : "vivabridge"
    }

    /// The line `run` prints once its HTTP listener listens (scripts read the real port from it).
    static func printHTTP(_ address: HTTPAddress) {
        let line = "vivabridge http: http://\(address)/ (the lanes page; /healthz, /readyz, /metrics, /events)\n"
        FileHandle.standardOutput.write(Data(line.utf8))
    }
}
