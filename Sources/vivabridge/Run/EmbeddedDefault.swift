import Bridge
import Foundation
import InterApp
import TerminalSimulator

/// The configuration `vivabridge run` uses without `--config`: loopback endpoints, three simulated
/// lanes (two iOS, one Android) in the same process, and a journal in a local state folder.
enum EmbeddedDefault {
    /// The simulated lanes: id, port offset from the base port, platform.
    static let lanes: [(id: String, offset: Int, platform: Platform)] = [
        ("lane-1", 0, .ios), ("lane-2", 1, .ios), ("lane-3", 2, .android),
    ]

    /// The port of `lane-1` (the others follow): `$VIVABRIDGE_SIMULATOR_BASEPORT` or 6001.
    static func basePort(environment: [String: String]) throws -> Int {
        guard let text = environment["VIVABRIDGE_SIMULATOR_BASEPORT"] else { return 6001 }
        guard let port = Int(text), (1...65533).contains(port) else {
            throw ConfigurationError(
                key: "VIVABRIDGE_SIMULATOR_BASEPORT",
                "must be a port from 1 to 65533 (three lanes follow it), not \(text)")
        }
        return port
    }

    /// The state folder: `$VIVABRIDGE_STATE` or `./.vivabridge`.
    static var stateFolder: String {
        ProcessInfo.processInfo.environment["VIVABRIDGE_STATE"] ?? ".vivabridge"
    }

    /// The bridge's side of the embedded default, with environment overrides applied.
    static func configuration(environment: [String: String]) throws -> BridgeConfiguration {
        var yaml = """
            command: tcp://127.0.0.1:5555
            events: tcp://127.0.0.1:5556
            http: 127.0.0.1:9556
            journal: \(stateFolder)/journal.sqlite
            terminal:
              merchantKey: DEMO-MERCHANT-KEY
              appId: com.vivabridge.demo
              callback: interapp-callback
            lanes:

            """
        let base = try basePort(environment: environment)
        for lane in lanes {
            yaml +=
                "  - {id: \(lane.id), endpoint: \"tcp://127.0.0.1:\(base + lane.offset)\", platform: \(lane.platform.rawValue)}\n"
        }
        return try BridgeConfiguration.load(yaml: yaml, environment: environment)
    }

    /// The simulated terminals behind the embedded lanes, bound where `configuration` (environment
    /// overrides included) says the bridge connects: a card is presented after 1.5 s and the host answers
    /// 1 s later, like a person at a real terminal.
    static func simulatedLanes(for configuration: BridgeConfiguration, cardMs: Int = 1500, hostMs: Int = 1000)
        -> [SimulatedLane]
    {
        configuration.lanes.map { lane in
            SimulatedLane(
                id: lane.id, endpoint: lane.endpoint, platform: lane.platform == .ios ? .ios : .android,
                behaviour: LaneBehaviour(cardPresentment: .milliseconds(cardMs), host: .milliseconds(hostMs)))
        }
    }
}
