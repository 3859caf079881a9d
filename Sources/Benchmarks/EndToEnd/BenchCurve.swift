import Bridge
import BridgeClient
import ZeroMQ

/// The keys of a CURVE run: the bridge's, the load clients' (one pair, on the allow-list as `bench`) and
/// the relays' (pinned by every lane; the relays admit only the bridge).
struct BenchCurve {
    let bridge: CurveKeyPair
    let client: ClientCurve
    let relay: CurveKeyPair

    init() throws {
        bridge = try CurveKeyPair.generate()
        client = ClientCurve(keys: try CurveKeyPair.generate(), serverKey: bridge.publicKey)
        relay = try CurveKeyPair.generate()
    }

    /// The bridge's `security` (the key is given whole; no file is read).
    var security: SecuritySettings {
        SecuritySettings(
            secretKeyFile: "(benchmark, in memory)", secretKey: bridge.secretKey, publicKey: bridge.publicKey,
            clients: [.init(name: "bench", publicKey: client.keys.publicKey, roles: [.commands, .events])],
            requireLaneKeys: true)
    }
}
