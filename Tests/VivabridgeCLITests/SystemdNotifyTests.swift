import Foundation
import Testing

/// `vivabridge run` under systemd's `Type=notify` protocol, with the test as systemd: a datagram
/// socket named by NOTIFY_SOCKET. And SIGHUP's reload of the log level (lanes: LaneReloadTests).
@Suite("vivabridge run under systemd: READY, WATCHDOG, RELOADING, STOPPING, and SIGHUP's reload")
struct SystemdNotifyTests {
    @Test("READY once listening, WATCHDOG while the loop turns, RELOADING then READY on SIGHUP, STOPPING on SIGTERM")
    func notifyProtocol() throws {
        let systemd = try NotifySocket()
        let bridge = try RunningBridge(environment: ["NOTIFY_SOCKET": systemd.path, "WATCHDOG_USEC": "400000"])
        let ready = try #require(systemd.await(line: "READY=1"), "no READY=1")
        #expect(ready.contains("STATUS=serving 1 lane(s)"))
        #expect(systemd.await(line: "WATCHDOG=1") != nil)
        #expect(systemd.await(line: "WATCHDOG=1") != nil)

        bridge.child.signal(SIGHUP)
        let reloading = try #require(systemd.await(line: "RELOADING=1"), "no RELOADING=1 on SIGHUP")
        #expect(reloading.contains("MONOTONIC_USEC="))
        #expect(systemd.await(line: "READY=1") != nil, "no READY=1 after the reload")

        bridge.child.signal(SIGTERM)
        #expect(systemd.await(line: "STOPPING=1") != nil)
        #expect(bridge.child.waitForExit(timeout: 30) == 0)
    }

    @Test("SIGHUP applies a new log level at once, refuses a bad file without touching anything, names what waits")
    func reload() throws {
        let bridge = try RunningBridge()
        let original = try String(contentsOf: bridge.config, encoding: .utf8)

        try (original + "\nlog: {level: debug}\n").write(to: bridge.config, atomically: true, encoding: .utf8)
        bridge.child.signal(SIGHUP)
        #expect(bridge.child.waitForErrorLine(containingAll: ["SIGHUP: log level changed", "level=debug"]) != nil)

        try (original + "\nabortGraceMs: soon\nbatchExpiryHours: 0\n").write(
            to: bridge.config, atomically: true, encoding: .utf8)
        bridge.child.signal(SIGHUP)
        let refused = try #require(
            bridge.child.waitForErrorLine(containing: "refused, the running configuration is unchanged"))
        #expect(refused.contains("count=2"))
        #expect(refused.contains("abortGraceMs: must be a whole number"))
        let pong = try bridge.call(#"{"id": "p-1", "action": "ping"}"#)
        #expect(pong?["outcome"]?.stringValue == "success", "the bridge stopped answering after a refused reload")

        try (original + "\nshutdownGraceMs: 1000\n").replacingOccurrences(of: "shutdownGraceMs: 30000\n", with: "")
            .write(to: bridge.config, atomically: true, encoding: .utf8)
        bridge.child.signal(SIGHUP)
        #expect(
            bridge.child.waitForErrorLine(
                containingAll: ["take effect at the next restart", "atRestart=shutdownGraceMs"]) != nil)

        bridge.child.signal(SIGTERM)
        #expect(bridge.child.waitForExit(timeout: 30) == 0)
    }
}
