import Bridge
import Foundation
import Testing
import ZeroMQ

/// `http:` in configuration (docs/CONFIG.md): off when absent, `host:port`, loopback unless `insecure`,
/// with or without `security` (HTTP has no CURVE).
@Suite("HTTP configuration: the http key and the loopback rule")
struct HTTPConfigurationTests {
    private let lane =
        "lanes:\n  - {id: lane-1, endpoint: \"tcp://127.0.0.1:6001\", platform: ios}\nterminal: {merchantKey: K}\n"

    private func problems(_ yaml: String, _ environment: [String: String] = [:]) -> [String] {
        BridgeConfiguration.check(yaml: yaml, environment: environment).problems.all.map(\.description)
    }

    @Test("absent or off: no listener; host:port read, port 0 for any free port, IPv6 in brackets")
    func addresses() throws {
        #expect(try BridgeConfiguration.load(yaml: lane).http == nil)
        #expect(try BridgeConfiguration.load(yaml: "http: off\n" + lane).http == nil)
        #expect(
            try BridgeConfiguration.load(yaml: "http: 127.0.0.1:9556\n" + lane).http
                == HTTPAddress(host: "127.0.0.1", port: 9556))
        #expect(try BridgeConfiguration.load(yaml: "http: localhost:0\n" + lane).http?.port == 0)
        let six = try BridgeConfiguration.load(yaml: "http: \"[::1]:9556\"\n" + lane).http
        #expect(six == HTTPAddress(host: "::1", port: 9556))
        #expect(six?.description == "[::1]:9556")
        #expect(problems("http: 9556\n" + lane) == ["http: must be host:port (e.g. 127.0.0.1:9556) or off, not 9556"])
        #expect(
            problems("http: 127.0.0.1:70000\n" + lane).first?.hasPrefix("http: needs a port from 0 to 65535") == true)
        #expect(problems("http: :9556\n" + lane).first?.hasPrefix("http: needs a host") == true)
    }

    @Test("VIVABRIDGE_HTTP sets or turns off the listener")
    func environment() throws {
        let set = try BridgeConfiguration.load(yaml: lane, environment: ["VIVABRIDGE_HTTP": "127.0.0.1:0"])
        #expect(set.http == HTTPAddress(host: "127.0.0.1", port: 0))
        let off = try BridgeConfiguration.load(
            yaml: "http: 127.0.0.1:9556\n" + lane, environment: ["VIVABRIDGE_HTTP": "off"])
        #expect(off.http == nil)
    }

    @Test("beyond loopback is refused unless insecure: true, and security: does not lift the rule")
    func loopbackRule() throws {
        let exposed = problems("http: 0.0.0.0:9556\n" + lane)
        #expect(exposed.count == 1)
        #expect(
            exposed.first?.hasPrefix(
                "http: 0.0.0.0:9556 is reachable beyond this machine, and HTTP has no authentication") == true)
        #expect(problems("http: 10.0.0.5:9556\ninsecure: true\n" + lane).isEmpty)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-httpcfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let keys = try CurveKeyPair.generate()
        let keyFile = folder.appendingPathComponent("bridge.key").path
        _ = FileManager.default.createFile(
            atPath: keyFile, contents: Data(keys.secretKey.utf8), attributes: [.posixPermissions: 0o600])
        let secured = "security:\n  secretKeyFile: \(keyFile)\n  requireLaneKeys: false\n"
        #expect(
            problems("http: 0.0.0.0:9556\n" + secured + lane).first?.hasPrefix("http: 0.0.0.0:9556 is reachable")
                == true)
        #expect(problems("http: 127.0.0.1:9556\n" + secured + lane).isEmpty)
    }

    @Test(
        "httpHosts: a list or one comma-separated value (VIVABRIDGE_HTTP_HOSTS), kept in lower case; a port or a scheme is refused"
    )
    func hosts() throws {
        #expect(try BridgeConfiguration.load(yaml: lane).httpHosts == [])
        #expect(
            try BridgeConfiguration.load(yaml: "httpHosts: [POS-Screen.local, 192.168.1.20, \"[fe80::1]\"]\n" + lane)
                .httpHosts == ["pos-screen.local", "192.168.1.20", "fe80::1"])
        let fromEnvironment = try BridgeConfiguration.load(
            yaml: "httpHosts: [a.local]\n" + lane, environment: ["VIVABRIDGE_HTTP_HOSTS": "wall.local, till-2.local"])
        #expect(fromEnvironment.httpHosts == ["wall.local", "till-2.local"])
        #expect(try BridgeConfiguration.load(yaml: lane, environment: ["VIVABRIDGE_HTTP_HOSTS": ""]).httpHosts == [])
        for bad in ["screen.local:9556", "http://screen.local", "scr een", "a..b"] {
            let found = problems("httpHosts: [\"\(bad)\"]\n" + lane)
            #expect(
                found.count == 1 && found[0].hasPrefix("httpHosts: \"\(bad)\" is not a host name"), "\(bad): \(found)")
        }
        #expect(
            problems("httpHosts: {a: b}\n" + lane) == [
                "httpHosts: must be a list of host names (e.g. [pos-screen.local])"
            ])
        let running = try BridgeConfiguration.load(yaml: "httpHosts: [a.local]\n" + lane)
        let candidate = try BridgeConfiguration.load(yaml: "httpHosts: [b.local]\n" + lane)
        #expect(running.restartDifferences(to: candidate) == ["httpHosts"])
    }

    @Test("a changed http address waits for a restart, and a reload says so")
    func reload() throws {
        let running = try BridgeConfiguration.load(yaml: "http: 127.0.0.1:9556\n" + lane)
        let candidate = try BridgeConfiguration.load(yaml: "http: 127.0.0.1:9557\n" + lane)
        #expect(running.restartDifferences(to: candidate) == ["http"])
    }
}
