import Bridge
import Foundation
import InterApp
import Logging
import TerminalSimulator
import Testing
import ZeroMQ

/// The relay's side of trust (`simulate --allow-key`): CURVE relays that admit only the bridges they know,
/// over real sockets on loopback.
@Suite("Security: relays admit only allowed bridges")
struct RelayAllowListTests {
    /// A bridge with key pair `keys`, linked to one CURVE lane whose relay key it pins, commanded by `till`.
    final class KeyedBridge {
        let keys: CurveKeyPair
        let till = try! CurveKeyPair.generate()
        let bridge: Bridge
        let bound: BoundEndpoints
        let folder: URL

        init(keys: CurveKeyPair, lane: String, endpoint: String, relayPublicKey: String) throws {
            self.keys = keys
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-relay-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let keyFile = folder.appendingPathComponent("bridge.key").path
            _ = FileManager.default.createFile(
                atPath: keyFile, contents: Data(CurveKeyFile.contents(keys.secretKey).utf8),
                attributes: [.posixPermissions: 0o600])
            let yaml = """
                command: tcp://127.0.0.1:*
                events: tcp://127.0.0.1:*
                journal: \(folder.path)/journal.sqlite
                terminal: {merchantKey: RELAY-TEST-KEY}
                security:
                  secretKeyFile: \(keyFile)
                  clients:
                    - {name: till, publicKey: "\(till.publicKey)", roles: [commands]}
                lanes:
                  - {id: \(lane), endpoint: "\(endpoint)", platform: ios, relayPublicKey: "\(relayPublicKey)"}
                """
            bridge = try Bridge(
                configuration: try BridgeConfiguration.load(yaml: yaml, environment: [:]),
                logger: Logger(label: "relay-allow-list", factory: { _ in SwiftLogNoOpLogHandler() }))
            bound = try bridge.start()
        }

        deinit {
            bridge.halt()
            try? FileManager.default.removeItem(at: folder)
        }

        /// Sends `json` as the till (CURVE) and waits for the reply.
        func call(_ context: Context, _ json: String) throws -> JSONObject? {
            let socket = try Socket(context, .dealer)
            defer { socket.close() }
            try socket.setCurveServerKey(keys.publicKey)
            try socket.setCurvePublicKey(till.publicKey)
            try socket.setCurveSecretKey(till.secretKey)
            try socket.setReceiveTimeout(15_000)
            try socket.connect(bound.command)
            try socket.send([Array(json.utf8)])
            guard let frames = try socket.receive(), let last = frames.last else { return nil }
            return try JSONValue.parse(last).objectValue
        }
    }

    @Test("a relay with an allow-list serves the allowed bridge and never lets another one bring its lane up")
    func onlyTheAllowedBridge() throws {
        let relayKeys = try CurveKeyPair.generate()
        var lane1 = SimulatedLane(id: "lane-1", platform: .ios)
        lane1.curveSecretKey = relayKeys.secretKey
        var lane2 = SimulatedLane(id: "lane-2", platform: .ios)
        lane2.curveSecretKey = relayKeys.secretKey
        let allowed = try CurveKeyPair.generate()
        let simulator = Simulator(lanes: [lane1, lane2], seed: 5, allowedBridgeKeys: [allowed.publicKey])
        let endpoints = try simulator.start()
        defer { simulator.stop() }
        let context = try Context()
        defer { context.terminate() }

        let trusted = try KeyedBridge(
            keys: allowed, lane: "lane-1", endpoint: endpoints["lane-1"]!, relayPublicKey: relayKeys.publicKey)
        let stranger = try KeyedBridge(
            keys: try CurveKeyPair.generate(), lane: "lane-2", endpoint: endpoints["lane-2"]!,
            relayPublicKey: relayKeys.publicKey)

        // The allowed bridge takes a sale end to end.
        #expect(simulator.waitForHello(lane: "lane-1", timeout: .seconds(10)))
        #expect(trusted.bridge.awaitLanesUp(["lane-1"], timeout: .seconds(10)))
        let approved = try trusted.call(context, saleJSON(id: "t-1", lane: "lane-1", amount: 100))
        #expect(approved?["outcome"]?.stringValue == "success")
        // The other bridge knows the relay's key, but the relay refuses its handshake: its lane never comes up
        // and its sale never reaches the relay.
        #expect(!simulator.waitForHello(lane: "lane-2", timeout: .seconds(1)))
        let refused = try stranger.call(context, saleJSON(id: "s-1", lane: "lane-2", amount: 100))
        #expect(refused?["outcome"]?.stringValue == "undeliverable")
        #expect(simulator.openedURLCount(lane: "lane-2") == 0)
    }
}
