import Bridge
import Foundation
import InterApp
import TerminalSimulator

/// The configuration `vivabridge run` uses without `--config`: loopback endpoints, three simulated relay
/// lanes (two iOS, one Android) in the same process, a cloud lane of Viva's simulated back office, and a
/// journal in a local state folder.
enum EmbeddedDefault {
    /// The simulated lanes: id, port offset from the base port, platform.
    static let lanes: [(id: String, offset: Int, platform: Platform)] = [
        ("lane-1", 0, .ios), ("lane-2", 1, .ios), ("lane-3", 2, .android),
    ]

    /// The port of `lane-1` (the other lanes, then Viva's simulated back office, follow):
    /// `$VIVABRIDGE_SIMULATOR_BASEPORT` or 6001.
    static func basePort(environment: [String: String]) throws -> Int {
        guard let text = environment["VIVABRIDGE_SIMULATOR_BASEPORT"] else { return 6001 }
        let last = 65535 - lanes.count
        guard let port = Int(text), (1...last).contains(port) else {
            throw ConfigurationError(
                key: "VIVABRIDGE_SIMULATOR_BASEPORT",
                "must be a port from 1 to \(last) (three lanes and Viva's simulated back office follow it), not \(text)"
            )
        }
        return port
    }

    /// The port of Viva's simulated back office (docs/CLOUD.md): the one after the lanes'.
    static func backOfficePort(environment: [String: String]) throws -> Int {
        try basePort(environment: environment) + lanes.count
    }

    /// The cloud lane of the embedded default: a terminal of Viva's simulated back office, driven through its
    /// Cloud Terminal API (docs/CLOUD.md), beside the relay lanes.
    static let cloudLane = (id: "lane-4", terminalId: "16000004", cashRegisterId: "till-4")

    /// The credentials the simulated back office takes, and the embedded default's `vivaCloud:` sends: demo
    /// values, written to files in the state folder as a real configuration names its secrets.
    static let backOfficeCredentials = CloudCredentials.demo

    /// A sale whose amount ends in this (20.54) is approved on a simulated lane and never answered, as when the
    /// terminal app is killed after the approval: its result is `unknown` until Viva's records settle it.
    static let unansweredAmountEnding = 54

    /// How long an `unknown` sale waits before the embedded default looks it up in Viva's records (the
    /// tour's; a real configuration's default is 2 minutes).
    static let resolveUnknownAfterMs = 3000

    /// The state folder: `$VIVABRIDGE_STATE` or `./.vivabridge`.
    static var stateFolder: String {
        ProcessInfo.processInfo.environment["VIVABRIDGE_STATE"] ?? ".vivabridge"
    }

    /// The bridge's side of the embedded default, with environment overrides applied. With `backOffice`, its
    /// `vivaCloud:` section asks Viva's simulated back office that `vivabridge run` starts (the demo secrets
    /// are written to the state folder first).
    static func configuration(environment: [String: String], backOffice: Bool = false) throws
        -> BridgeConfiguration
    {
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
        if backOffice {
            let url = "http://127.0.0.1:\(try backOfficePort(environment: environment))"
            let (secretFile, keyFile) = try writeBackOfficeSecrets()
            yaml +=
                "  - {id: \(cloudLane.id), cloud: {terminalId: \"\(cloudLane.terminalId)\", cashRegisterId: \(cloudLane.cashRegisterId)}}\n"
            yaml += """
                vivaCloud:
                  accountsURL: \(url)
                  apiURL: \(url)
                  legacyURL: \(url)
                  clientId: \(backOfficeCredentials.clientId)
                  clientSecretFile: \(secretFile)
                  merchantId: \(backOfficeCredentials.merchantId)
                  apiKeyFile: \(keyFile)
                  resolveUnknownAfterMs: \(resolveUnknownAfterMs)

                """
        }
        return try BridgeConfiguration.load(yaml: yaml, environment: environment)
    }

    /// Writes the demo secrets of ``backOfficeCredentials`` into the state folder (0600); returns their paths.
    private static func writeBackOfficeSecrets() throws -> (clientSecret: String, apiKey: String) {
        let folder = stateFolder
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ConfigurationError(key: "VIVABRIDGE_STATE", "the state folder \(folder) cannot be made: \(error)")
        }
        var paths: [String] = []
        for (name, value) in [
            ("viva-client-secret", backOfficeCredentials.clientSecret), ("viva-api-key", backOfficeCredentials.apiKey),
        ] {
            let path = "\(folder)/\(name)"
            try? FileManager.default.removeItem(atPath: path)
            guard
                FileManager.default.createFile(
                    atPath: path, contents: Data(value.utf8), attributes: [.posixPermissions: 0o600])
            else {
                throw ConfigurationError(key: "VIVABRIDGE_STATE", "\(path) cannot be written")
            }
            paths.append(path)
        }
        return (paths[0], paths[1])
    }

    /// The simulated terminals behind the embedded lanes, bound where `configuration` (environment
    /// overrides included) says the bridge connects: a card is presented after 1.5 s and the host answers
    /// 1 s later, like a person at a real terminal.
    static func simulatedLanes(for configuration: BridgeConfiguration, cardMs: Int = 1500, hostMs: Int = 1000)
        -> [SimulatedLane]
    {
        configuration.lanes.compactMap { lane in
            guard let endpoint = lane.relayEndpoint else { return nil }
            return SimulatedLane(
                id: lane.id, endpoint: endpoint, platform: lane.platform == .ios ? .ios : .android,
                behaviour: LaneBehaviour(
                    cardPresentment: .milliseconds(cardMs), host: .milliseconds(hostMs),
                    unansweredAmountEnding: unansweredAmountEnding))
        }
    }
}
