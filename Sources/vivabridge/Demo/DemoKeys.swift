import BridgeClient
import Foundation
import ZeroMQ

/// The CURVE keys of `vivabridge demo --curve`, made fresh for each run: the bridge's, the till's (the one
/// client on the allow-list) and the relays'. None of them is ever printed whole.
struct DemoKeys {
    /// The name the bridge admits the till under (in every reply and event of its commands).
    static let tillName = "demo-till"

    let bridge: CurveKeyPair
    let till: CurveKeyPair
    let relay: CurveKeyPair

    /// Three new key pairs.
    static func generate() throws -> DemoKeys {
        guard CurveKeyPair.isAvailable else {
            throw DemoError("this libzmq was built without CURVE; install Debian's libzmq5 (it has it)")
        }
        return DemoKeys(bridge: try .generate(), till: try .generate(), relay: try .generate())
    }

    /// How the till connects: its own pair and the bridge's public key.
    var client: ClientCurve { ClientCurve(keys: till, serverKey: bridge.publicKey) }

    /// The `security:` section of the demo bridge's configuration, its secret key written (0600) in `folder`.
    func securitySection(folder: URL) throws -> String {
        let path = folder.appendingPathComponent("bridge.key").path
        guard
            FileManager.default.createFile(
                atPath: path, contents: Data(CurveKeyFile.contents(bridge.secretKey).utf8),
                attributes: [.posixPermissions: 0o600])
        else { throw DemoError("cannot write the demo bridge's key in \(folder.path)") }
        return """
            security:
              secretKeyFile: \(path)
              clients:
                - {name: \(Self.tillName), publicKey: "\(till.publicKey)", roles: [commands, events]}

            """
    }

    /// A line for the reader: which keys are in use (public keys only, their first 8 characters).
    var description: String {
        "CURVE on every socket: bridge key \(bridge.publicKey.prefix(8))…, till \(Self.tillName) "
            + "\(till.publicKey.prefix(8))…, relays \(relay.publicKey.prefix(8))… (the relays admit only the bridge)"
    }
}
