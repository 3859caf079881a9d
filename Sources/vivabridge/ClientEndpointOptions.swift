import ArgumentParser
import Bridge
import Foundation

/// Where `send`, `watch` and the demo find a running bridge: `--command-endpoint`/`--events-endpoint`,
/// else the endpoints of `--config FILE`, else `VIVABRIDGE_COMMAND`/`VIVABRIDGE_EVENTS`, else the
/// defaults (docs/OPERATIONS.md).
struct ClientEndpointOptions: ParsableArguments {
    @Option(name: .customLong("command-endpoint"), help: "The bridge's command (ROUTER) endpoint.")
    var commandEndpoint: String?

    @Option(name: .customLong("events-endpoint"), help: "The bridge's event (PUB) endpoint.")
    var eventsEndpoint: String?

    @Option(name: .customLong("config"), help: "Read the endpoints from the bridge's configuration file.")
    var config: String?

    /// The defaults of the contract (PROTOCOL.md §1).
    static let defaultCommand = "tcp://127.0.0.1:5555"
    static let defaultEvents = "tcp://127.0.0.1:5556"

    /// The command endpoint, `legacy` (an older flag) winning over the rest when given.
    func command(legacy: String? = nil) throws -> String {
        try resolve(
            commandEndpoint ?? legacy, key: \.command, variable: "VIVABRIDGE_COMMAND", fallback: Self.defaultCommand)
    }

    /// The events endpoint, `legacy` (an older flag) winning over the rest when given.
    func events(legacy: String? = nil) throws -> String {
        try resolve(
            eventsEndpoint ?? legacy, key: \.events, variable: "VIVABRIDGE_EVENTS", fallback: Self.defaultEvents)
    }

    private func resolve(
        _ flag: String?, key: KeyPath<BridgeConfiguration, String>, variable: String, fallback: String
    ) throws -> String {
        if let flag { return flag }
        let environment = ProcessInfo.processInfo.environment
        if let config {
            do {
                return try BridgeConfiguration.load(file: config, environment: environment)[keyPath: key]
            } catch {
                throw ValidationError("--config \(config): \(error)")
            }
        }
        return environment[variable] ?? fallback
    }
}
