import Bridge
import Testing

/// What counts as loopback (issue 32, item 6): an address literal in 127.0.0.0/8 or ::1, or `localhost`;
/// never a name that merely starts like one. One rule for the `http:` address and the ZeroMQ endpoints.
@Suite("Loopback: address literals and localhost, not prefixes")
struct LoopbackRuleTests {
    private let lane =
        "lanes:\n  - {id: lane-1, endpoint: \"tcp://127.0.0.1:6001\", platform: ios}\nterminal: {merchantKey: K}\n"

    private func problems(_ yaml: String) -> [String] {
        BridgeConfiguration.check(yaml: yaml, environment: [:]).problems.all.map(\.description)
    }

    @Test(
        "which hosts are loopback",
        arguments: [
            ("127.0.0.1", true), ("127.1.2.3", true), ("127.255.255.254", true), ("localhost", true),
            ("LocalHost", true), ("::1", true), ("[::1]", true), ("0:0:0:0:0:0:0:1", true),
            ("127.attacker.example", false), ("localhost.evil.example", false), ("0.0.0.0", false), ("*", false),
            ("128.0.0.1", false), ("10.0.0.5", false), ("127.0.0", false), ("127.0.0.1.evil.example", false),
            ("127.0.0.256", false), ("::", false), ("::2", false), ("[::1", false), ("", false),
        ])
    func hosts(host: String, loopback: Bool) {
        #expect(Loopback.isLoopback(host: host) == loopback)
    }

    @Test(
        "the http address is refused beyond loopback unless insecure, whatever its name starts with",
        arguments: [
            ("127.attacker.example:17481", false), ("\"localhost.evil.example:9556\"", false),
            ("0.0.0.0:9556", false), ("127.0.0.1:9556", true), ("127.1.2.3:9556", true), ("localhost:9556", true),
            ("\"[::1]:9556\"", true),
        ])
    func httpAddress(address: String, loopback: Bool) {
        let found = problems("http: \(address)\n" + lane)
        if loopback {
            #expect(found.isEmpty, "\(found)")
        } else {
            #expect(found.count == 1)
            #expect(found.first?.contains("is reachable beyond this machine") == true, "\(found)")
            #expect(problems("http: \(address)\ninsecure: true\n" + lane).isEmpty)
        }
    }

    @Test(
        "a command or events socket is refused beyond loopback unless insecure, whatever its name starts with",
        arguments: [
            ("tcp://127.attacker.example:5555", false), ("tcp://localhost.evil.example:5555", false),
            ("tcp://0.0.0.0:5555", false), ("tcp://127.0.0.1:5555", true), ("tcp://127.1.2.3:5555", true),
            ("tcp://localhost:5555", true), ("tcp://[::1]:5555", true), ("ipc:///run/vivabridge.sock", true),
        ])
    func zeroMQEndpoint(endpoint: String, loopback: Bool) {
        let found = problems("command: \"\(endpoint)\"\n" + lane)
        if loopback {
            #expect(found.isEmpty, "\(found)")
        } else {
            #expect(
                found == [
                    "command: \(endpoint) is reachable beyond this machine on a plain socket: add security (docs/SECURITY.md), bind to 127.0.0.1, or set insecure: true"
                ])
        }
        #expect(Loopback.isLoopback(endpoint: endpoint) == loopback)
    }
}
