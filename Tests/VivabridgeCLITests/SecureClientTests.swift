import Foundation
import Testing
import ZeroMQ

/// `vivabridge send` against a bridge with security, as processes (docs/SECURITY.md §4).
@Suite("send with CURVE: --key-file with --server-key or --config; SIGHUP replaces the allow-list")
struct SecureClientTests {
    @Test("an allowed client key gets its reply; no key, or a key not on the list, gets none (exit 5)")
    func sendWithKeys() throws {
        let keys = try KeyFolder(prefix: "vivabridge-keys")
        defer { keys.remove() }
        let bridgeKeys = try CurveKeyPair.generate()
        let pos = try CurveKeyPair.generate()
        let stranger = try CurveKeyPair.generate()
        let keyFile = keys.keyFile
        let bridgeKeyFile = keyFile("bridge.key", bridgeKeys.secretKey)
        let posKeyFile = keyFile("pos.key", pos.secretKey)
        let strangerKeyFile = keyFile("stranger.key", stranger.secretKey)
        let bridge = try RunningBridge(
            extra: """
                security:
                  secretKeyFile: \(bridgeKeyFile)
                  requireLaneKeys: false
                  clients:
                    - {name: pos-7, publicKey: "\(pos.publicKey)", roles: [commands]}
                """)

        let withServerKey = try ChildProcess(
            [
                "send", "ping", "--command-endpoint", bridge.command, "--key-file", posKeyFile, "--server-key",
                bridgeKeys.publicKey, "--wait-ms", "10000",
            ])
        #expect(withServerKey.waitForExit(timeout: 20) == 0, "\(withServerKey.errorOutput)")
        let withConfig = try ChildProcess(
            [
                "send", "ping", "--command-endpoint", bridge.command, "--config", bridge.config.path, "--key-file",
                posKeyFile, "--wait-ms", "10000",
            ])
        #expect(withConfig.waitForExit(timeout: 20) == 0, "\(withConfig.errorOutput)")

        let plain = try ChildProcess(["send", "ping", "--command-endpoint", bridge.command, "--wait-ms", "1000"])
        #expect(plain.waitForExit(timeout: 20) == 5)
        let notListed = try ChildProcess(
            [
                "send", "ping", "--command-endpoint", bridge.command, "--key-file", strangerKeyFile, "--server-key",
                bridgeKeys.publicKey, "--wait-ms", "1000",
            ])
        #expect(notListed.waitForExit(timeout: 20) == 5)
        let noKeyWithConfig = try ChildProcess(["send", "ping", "--config", bridge.config.path, "--wait-ms", "1000"])
        #expect(noKeyWithConfig.waitForExit(timeout: 20) != 0)
        #expect(noKeyWithConfig.errorOutput.contains("requires CURVE: give --key-file"))
        #expect(
            bridge.child.waitForErrorLine(
                containingAll: ["client refused: not on the allow-list", "key=\(stranger.publicKey.prefix(8))"]) != nil)
        #expect(!bridge.child.errorOutput.contains(bridgeKeys.secretKey))

        // SIGHUP with pos-7 taken off the list (the stranger put on): pos-7 is refused from then on.
        let original = try String(contentsOf: bridge.config, encoding: .utf8)
        try original.replacingOccurrences(
            of: "name: pos-7, publicKey: \"\(pos.publicKey)\"",
            with: "name: other, publicKey: \"\(stranger.publicKey)\""
        )
        .write(to: bridge.config, atomically: true, encoding: .utf8)
        bridge.child.signal(SIGHUP)
        #expect(
            bridge.child.waitForErrorLine(containingAll: ["SIGHUP: the allow-list changed", "clients=other count=1"])
                != nil)
        let removed = try ChildProcess(
            [
                "send", "ping", "--command-endpoint", bridge.command, "--key-file", posKeyFile, "--server-key",
                bridgeKeys.publicKey, "--wait-ms", "1000",
            ])
        #expect(removed.waitForExit(timeout: 20) == 5, "a removed client was still served")
        let added = try ChildProcess(
            [
                "send", "ping", "--command-endpoint", bridge.command, "--key-file", strangerKeyFile, "--server-key",
                bridgeKeys.publicKey, "--wait-ms", "10000",
            ])
        #expect(added.waitForExit(timeout: 20) == 0, "an added client was refused")
        bridge.child.signal(SIGTERM)
        #expect(bridge.child.waitForExit(timeout: 30) == 0)
    }
}
