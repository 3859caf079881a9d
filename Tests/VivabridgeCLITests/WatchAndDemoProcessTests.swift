import Foundation
import InterApp
import Testing

/// `vivabridge watch` and `vivabridge demo` as child processes.
@Suite("vivabridge watch and demo, as processes")
struct WatchAndDemoProcessTests {
    /// Injects probe callbacks until `child` shows one: then its event subscription is in effect.
    private func awaitSubscription(_ child: ChildProcess, bridge: CLIBridge, showing text: String) -> Bool {
        for _ in 0..<200 {
            bridge.injectProbe(lane: "lane-1")
            if child.waitForLine(containing: text, timeout: 0.05) != nil { return true }
        }
        return false
    }

    @Test("watch --json prints each event as one {\"topic\",\"event\"} line and exits 0 on SIGTERM")
    func watchJSON() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane()])
        let watch = try ChildProcess([
            "watch", "--json", "--events", bridge.bound.events, "--command", bridge.bound.command,
        ])
        try #require(awaitSubscription(watch, bridge: bridge, showing: "probe.orphan"), "\(watch.errorOutput)")
        let sale = try bridge.send(["sale", "--lane", "lane-1", "--amount", "3.00", "--id", "w-1"])
        #expect(sale.status == 0)
        let line = try #require(watch.waitForLine(containing: #""topic":"lane-1.sale.result""#))
        let object = try #require(try JSONValue.parse(line).objectValue)
        #expect(object.keys == ["topic", "event"])
        let event = try #require(object["event"]?.objectValue)
        #expect(event["id"]?.stringValue == "w-1")
        #expect(event["outcome"]?.stringValue == "success")
        #expect(event["seq"]?.intValue != nil && event["epoch"]?.intValue != nil)
        #expect(event["result"]?["amount"]?.intValue == 300)
        watch.signal(SIGTERM)
        #expect(watch.waitForExit() == 0)
    }

    @Test("watch (not a terminal) prints the table from the lanes snapshot, then after each change; SIGINT exits 0")
    func watchTable() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane(), CLIBridge.lane("lane-2", .android)])
        let watch = try ChildProcess(["watch", "--events", bridge.bound.events, "--command", bridge.bound.command])
        #expect(watch.waitForLine(containing: "lane-2  up") != nil, "no table from the snapshot: \(watch.output)")
        #expect(!watch.output.contains("\u{1B}["), "no ANSI codes when standard output is not a terminal")
        try #require(awaitSubscription(watch, bridge: bridge, showing: "a probe callback matched no command"))
        #expect(try bridge.send(["sale", "--lane", "lane-2", "--amount", "1251", "--id", "w-2"]).status == 1)
        #expect(watch.waitForLine(containing: "sale failure w-2") != nil, "\(watch.output)")
        watch.signal(SIGINT)
        #expect(watch.waitForExit() == 0)
    }

    @Test("demo runs its scripted session against its own bridge and exits 0, every step as expected")
    func demo() throws {
        let child = try ChildProcess(["demo"])
        let status = child.waitForExit(timeout: 120)
        #expect(status == 0, "\(child.output)\n\(child.errorOutput)")
        #expect(child.output.contains("Every step ended as expected."))
        for step in 1...7 { #expect(child.output.contains("Step \(step)/7")) }
        #expect(child.output.contains("lane-1.sale.late_result"))
        #expect(child.output.contains("lane-3.capture_pre_auth.result"))
        #expect(child.output.contains("the capture names its authorisation: demo-pre-auth"))
        #expect(!child.output.contains("NOT as expected"))
    }

    @Test("demo --curve plays the same session with CURVE on every socket, the till admitted by name")
    func demoWithCurve() throws {
        let child = try ChildProcess(["demo", "--curve"])
        let status = child.waitForExit(timeout: 120)
        #expect(status == 0, "\(child.output)\n\(child.errorOutput)")
        #expect(child.output.contains("Every step ended as expected."))
        #expect(child.output.contains("CURVE on every socket"))
        // The bridge admitted the till under its allow-list name: only a CURVE client has one.
        #expect(child.output.contains("(client demo-till)"))
        #expect(!child.output.contains("NOT as expected"))
    }
}
