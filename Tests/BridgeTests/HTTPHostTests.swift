import Bridge
import BridgeClient
import Foundation
import Testing

/// The listener answers only requests whose `Host` names it (docs/SECURITY.md, "The HTTP listener"): a
/// page that DNS rebinding pointed at 127.0.0.1 sends its own name and gets 421, not the events.
@Suite("HTTP listener: the Host check")
struct HTTPHostTests {
    @Test("loopback names, the listener's address and httpHosts are answered; any other Host, or none, is 421")
    func hosts() async throws {
        let harness = try BridgeHarness.lanes(.ios)
        let listener = try await RunningListener(bridge: harness.bridge, hosts: ["pos-screen.local"])
        let port = listener.port
        for host in [
            "127.0.0.1", "127.0.0.1:\(port)", "localhost", "LocalHost:\(port)", "localhost.", "127.9.8.7:\(port)",
            "[::1]:\(port)", "pos-screen.local", "POS-SCREEN.local:80",
        ] {
            let answer = try await HTTPProbe.get("/healthz", port: port, host: host)
            #expect(answer.status == 200, "Host: \(host) -> \(answer.status) \(answer.body)")
        }
        for host in [
            "attacker.example", "attacker.example:\(port)", "127.attacker.example", "127.0.0.1.attacker.example",
            "localhost.attacker.example", "127.1", "0x7f000001", "[::2]", "10.0.0.5", "", "127.0.0.1:80x",
            "screen.local",
        ] {
            let answer = try await HTTPProbe.get("/healthz", port: port, host: host)
            #expect(answer.status == 421, "Host: \(host) -> \(answer.status)")
        }
        let missing = try await HTTPProbe.get("/healthz", port: port, host: nil)
        #expect(missing.status == 421, "no Host at all")
        #expect(missing.body.contains("a request needs a Host naming this listener"), "\(missing.body)")

        let rebound = try await HTTPProbe.get("/events", port: port, host: "attacker.example:\(port)")
        #expect(rebound.status == 421)
        #expect(rebound.headers["content-type"] == "application/json")
        #expect(
            rebound.body.contains(#""attacker.example:\#(port)\" is not a name of this listener"#)
                && rebound.body.contains("httpHosts"), "\(rebound.body)")
        #expect(!rebound.body.contains("lanes"), "nothing of the bridge's state")
        #expect(harness.bridge.tap.viewers == 0, "a refused /events is no viewer")
        for path in ["/", "/metrics", "/readyz", "/nowhere"] {
            #expect(try await HTTPProbe.get(path, port: port, host: "attacker.example").status == 421, "\(path)")
        }
        let scrape = Scrape(try await HTTPProbe.get("/metrics", port: port).body)
        #expect(scrape.value("vivabridge_http_misdirected_total") == 18)
        await listener.stop()
    }
}
