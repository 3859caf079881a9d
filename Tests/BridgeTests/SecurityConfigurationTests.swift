import Bridge
import Foundation
import Testing
import ZeroMQ

/// `security:` and `insecure:` in configuration (docs/SECURITY.md §1-2): what is refused, and why.
@Suite("Security configuration: keys, exposure, pinned relays")
struct SecurityConfigurationTests {
    private let folder: URL
    private let keyFile: String
    private let keys: CurveKeyPair

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-seccfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        keys = try CurveKeyPair.generate()
        keyFile = folder.appendingPathComponent("bridge.key").path
        _ = FileManager.default.createFile(
            atPath: keyFile, contents: Data(keys.secretKey.utf8), attributes: [.posixPermissions: 0o600])
    }

    private func problems(_ yaml: String) -> [String] {
        BridgeConfiguration.check(yaml: yaml).problems.all.map(\.description)
    }

    private func lane(_ extra: String = "") -> String {
        "lanes:\n  - {id: lane-1, endpoint: \"tcp://10.0.0.11:6001\", platform: ios\(extra)}\nterminal: {merchantKey: K}\n"
    }

    @Test("without security, a command or events socket beyond loopback is refused unless insecure: true")
    func loopbackOnly() {
        let exposed = problems("command: tcp://*:5555\nevents: tcp://0.0.0.0:5556\n" + lane())
        #expect(exposed.count == 2)
        #expect(exposed.first?.hasPrefix("command: tcp://*:5555 is reachable beyond this machine") == true)
        #expect(problems("command: tcp://*:5555\ninsecure: true\n" + lane()).isEmpty)
        #expect(problems("command: ipc:///run/vivabridge.sock\n" + lane()).isEmpty)
        #expect(problems("insecure: maybe\n" + lane()) == ["insecure: must be true or false, not maybe"])
    }

    @Test("security: the bridge's key from a file only its owner reads; its public key derived; clients checked")
    func securityKeys() throws {
        let good =
            "security:\n  secretKeyFile: \(keyFile)\n  clients:\n    - {name: pos-7, publicKey: \"\(keys.publicKey)\", roles: [commands]}\n"
        let (configuration, found) = BridgeConfiguration.check(
            yaml: "command: tcp://*:5555\n" + good + lane(", relayPublicKey: \"\(keys.publicKey)\""))
        #expect(found.all.isEmpty, "\(found.all)")
        #expect(configuration.security?.publicKey == keys.publicKey)
        #expect(configuration.security?.clients.first?.roles == [.commands])
        #expect(configuration.lanes.first?.relayPublicKey == keys.publicKey)

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyFile)
        let open = problems(good + lane(", relayPublicKey: \"\(keys.publicKey)\""))
        #expect(
            open == [
                "security.secretKeyFile: \(keyFile) is readable by group or others; make it the owner's alone: chmod 600 \(keyFile)"
            ])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile)

        let badRole = problems(
            good.replacingOccurrences(of: "[commands]", with: "[root]")
                + lane(", relayPublicKey: \"\(keys.publicKey)\""))
        #expect(badRole == ["security.clients[0].roles: must be commands, events or admin, not root"])
        let badKey = problems(
            good.replacingOccurrences(of: keys.publicKey, with: "short")
                + lane(", relayPublicKey: \"\(keys.publicKey)\""))
        #expect(badKey == ["security.clients[0].publicKey: must be a CURVE public key: 40 characters of Z85"])
    }

    @Test("with security every lane pins its relay's key (unless requireLaneKeys: false); without, none may")
    func pinnedLanes() {
        let security = "security:\n  secretKeyFile: \(keyFile)\n"
        #expect(
            problems(security + lane()) == [
                "lanes[0].relayPublicKey: is required with security (pin the relay's key), or set security.requireLaneKeys: false"
            ])
        #expect(problems(security + "  requireLaneKeys: false\n" + lane()).isEmpty)
        #expect(
            problems(lane(", relayPublicKey: \"\(keys.publicKey)\"")) == [
                "lanes[0].relayPublicKey: needs security (the bridge's own key to authenticate with)"
            ])
    }
}
