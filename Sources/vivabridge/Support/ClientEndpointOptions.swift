import ArgumentParser
import Bridge
import BridgeClient
import Foundation
import ZeroMQ

/// Where `send`, `watch` and the demo find a running bridge: `--command-endpoint`/`--events-endpoint`,
/// else the endpoints of `--config FILE`, else `VIVABRIDGE_COMMAND`/`VIVABRIDGE_EVENTS`, else the
/// defaults (docs/OPERATIONS.md).
struct ClientEndpointOptions: ParsableArguments {
    @Option(
        name: .customLong("command-endpoint"),
        help: """
            The bridge's command (ROUTER) endpoint. send takes it once per bridge when two share a journal: \
            it tries them in turn under the same id (docs/PROTOCOL.md, "Two bridges"); watch uses the first.
            """)
    var commandEndpoints: [String] = []

    @Option(name: .customLong("events-endpoint"), help: "The bridge's events (XPUB) endpoint.")
    var eventsEndpoint: String?

    @Option(name: .customLong("config"), help: "Read the endpoints from the bridge's configuration file.")
    var config: String?

    @Option(name: .customLong("key-file"), help: "This client's CURVE secret key file (a bridge with security).")
    var keyFile: String?

    // Unconditional: a Z85 key may begin with `-` (one in 85 does), which would otherwise read as an option.
    @Option(
        name: .customLong("server-key"), parsing: .unconditional,
        help: "The bridge's CURVE public key: 40 characters of Z85, or its .pub file (default: from --config).")
    var serverKey: String?

    /// The defaults of the contract (PROTOCOL.md §1).
    static let defaultCommand = "tcp://127.0.0.1:5555"
    static let defaultEvents = "tcp://127.0.0.1:5556"

    /// The command endpoint (the first `--command-endpoint` when several are given), `legacy` (an older flag)
    /// winning over the rest when given.
    func command(legacy: String? = nil) throws -> String {
        try resolve(
            commandEndpoints.first ?? legacy, key: \.command, variable: "VIVABRIDGE_COMMAND",
            fallback: Self.defaultCommand)
    }

    /// Every command endpoint given with `--command-endpoint`, in order; else the one ``command(legacy:)``
    /// finds.
    func commands(legacy: String? = nil) throws -> [String] {
        commandEndpoints.isEmpty ? [try command(legacy: legacy)] : commandEndpoints
    }

    /// The events endpoint, `legacy` (an older flag) winning over the rest when given.
    func events(legacy: String? = nil) throws -> String {
        try resolve(
            eventsEndpoint ?? legacy, key: \.events, variable: "VIVABRIDGE_EVENTS", fallback: Self.defaultEvents)
    }

    /// The CURVE keys to connect with, or nil for plain sockets: `--key-file` with `--server-key`, or with
    /// the public key of the bridge whose configuration `--config` names.
    func curve() throws -> ClientCurve? {
        let fromConfig = config.flatMap { config in
            try? BridgeConfiguration.load(file: config, environment: ProcessInfo.processInfo.environment).security
        }
        guard let keyFile else {
            if serverKey != nil { throw ValidationError("--server-key needs --key-file (this client's secret key)") }
            if fromConfig != nil {
                throw ValidationError(
                    "the bridge of --config \(config ?? "") requires CURVE: give --key-file (vivabridge keygen --out NAME)"
                )
            }
            return nil
        }
        guard let secret = CurveKeyFile.read(keyFile),
            let publicKey = try? CurveKeyPair.publicKey(forSecretKey: secret)
        else {
            throw ValidationError("--key-file \(keyFile): does not hold a CURVE secret key (one Z85 line)")
        }
        let server: String
        if let serverKey {
            guard let given = Z85.isKey(serverKey) ? serverKey : CurveKeyFile.read(serverKey) else {
                throw ValidationError("--server-key: neither a Z85 key of 40 characters nor a readable .pub file")
            }
            server = given
        } else if let fromConfig {
            server = fromConfig.publicKey
        } else {
            throw ValidationError("--key-file needs --server-key (the bridge's public key) or --config")
        }
        return ClientCurve(keys: CurveKeyPair(publicKey: publicKey, secretKey: secret), serverKey: server)
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
