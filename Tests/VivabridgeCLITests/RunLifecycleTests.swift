import Foundation
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

/// `vivabridge run` as a process: it always ends when told to, never runs half-started, and SIGHUP
/// never ends it (issue 10's hang, issue 13's signals).
@Suite("vivabridge run: start, signals and exit codes")
struct RunLifecycleTests {
    @Test("the embedded default whose lane ports are taken exits 1 at once, naming why; it never attaches")
    func embeddedDefaultPortsTaken() throws {
        let holder = try Socket(try Context(), .router)
        try holder.bind("tcp://127.0.0.1:*")
        let taken = try holder.lastEndpoint
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-emb-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let child = try ChildProcess(
            ["run"],
            environment: [
                "VIVABRIDGE_COMMAND": "tcp://127.0.0.1:*", "VIVABRIDGE_EVENTS": "tcp://127.0.0.1:*",
                "VIVABRIDGE_LANES_0_ENDPOINT": taken, "VIVABRIDGE_STATE": state.path,
            ])
        let status = child.waitForExit(timeout: 10)
        #expect(status == 1, "the bridge did not end within 10 s, or ended otherwise (\(String(describing: status)))")
        #expect(child.errorOutput.contains("vivabridge: the simulated lanes could not start"))
        #expect(!child.output.contains("vivabridge is running"))
        holder.close()
    }

    @Test("VIVABRIDGE_SIMULATOR_BASEPORT moves the embedded lanes; taken, it is refused the same way")
    func embeddedBasePortTaken() throws {
        let holder = try Socket(try Context(), .router)
        try holder.bind("tcp://127.0.0.1:*")
        let port = try holder.lastEndpoint.split(separator: ":").last!
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-emb-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let child = try ChildProcess(
            ["run"],
            environment: [
                "VIVABRIDGE_COMMAND": "tcp://127.0.0.1:*", "VIVABRIDGE_EVENTS": "tcp://127.0.0.1:*",
                "VIVABRIDGE_SIMULATOR_BASEPORT": String(port), "VIVABRIDGE_STATE": state.path,
            ])
        #expect(child.waitForExit(timeout: 10) == 1)
        #expect(child.errorOutput.contains("127.0.0.1:\(port)"))
        holder.close()
    }

    @Test("a command endpoint already in use ends the start with exit 1 and a line naming the key and its variable")
    func bindFailureNamesTheKey() throws {
        let holder = try Socket(try Context(), .router)
        try holder.bind("tcp://127.0.0.1:*")
        let taken = try holder.lastEndpoint
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-bind-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("bridge.yaml")
        try """
        command: \(taken)
        events: tcp://127.0.0.1:*
        journal: \(folder.path)/journal.sqlite
        terminal: {merchantKey: K}
        lanes:
          - {id: lane-1, endpoint: "tcp://127.0.0.1:1", platform: ios}
        """.write(to: config, atomically: true, encoding: .utf8)
        let child = try ChildProcess(["run", "--config", config.path])
        #expect(child.waitForExit(timeout: 10) == 1)
        #expect(
            child.errorOutput.contains(
                "command: \(taken): address already in use; set \"command\" or VIVABRIDGE_COMMAND"))
        holder.close()
    }

    @Test("SIGTERM ends a running bridge with exit 0; its banner's hints carry its real endpoints and its binary")
    func sigterm() throws {
        let bridge = try RunningBridge()
        #expect(bridge.child.waitForLine(containing: "--command-endpoint \(bridge.command)") != nil)
        // Started by its path (as scripts/run starts it), the hints name that path: no `swift run`, which in a
        // second terminal would wait on SwiftPM's build lock.
        #expect(bridge.child.output.contains("  \(ChildProcess.executable.path) watch"), "\(bridge.child.output)")
        #expect(!bridge.child.output.contains("swift run"))
        #expect(try bridge.call(#"{"id":"p","action":"ping"}"#)?["outcome"]?.stringValue == "success")
        bridge.child.signal(SIGTERM)
        #expect(bridge.child.waitForExit(timeout: 20) == 0)
    }

    @Test("log: {format: json} writes one JSON object a line, milliseconds in its time; link up is a notice")
    func jsonLogs() throws {
        let bridge = try RunningBridge(extra: "log: {level: notice, format: json}")
        let deadline = Date().addingTimeInterval(10)
        while !bridge.child.errorOutput.contains("lane link up"), Date() < deadline {
            _ = try bridge.call(#"{"id":"p","action":"ping"}"#)
        }
        let lines = bridge.child.errorOutput.split(separator: "\n")
        let link = try #require(lines.first { $0.contains("lane link up") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(link.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "notice")
        let time = try #require(object["time"] as? String)
        #expect(time.count == 24 && time.hasSuffix("Z") && time.contains("."), "\(time)")
        #expect((object["metadata"] as? [String: String])?["lane"] == "lane-1")
        for line in lines { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)") }
        bridge.child.signal(SIGTERM)
        #expect(bridge.child.waitForExit(timeout: 20) == 0)
    }

    @Test("SIGHUP never ends the bridge: it reloads the unchanged file, says so, and keeps answering")
    func sighup() throws {
        let bridge = try RunningBridge()
        bridge.child.signal(SIGHUP)
        #expect(bridge.child.waitForErrorLine(containing: "reloaded", timeout: 10) != nil)
        #expect(try bridge.call(#"{"id":"p2","action":"ping"}"#)?["outcome"]?.stringValue == "success")
        bridge.child.signal(SIGTERM)
        #expect(bridge.child.waitForExit(timeout: 20) == 0)
    }

    @Test("SIGTERM is answered at once: a notice says the bridge drains, with the commands in flight and the grace")
    func drainingNotice() throws {
        let (bridge, sale) = try RunningBridge.holdingASale(grace: 2_000)
        defer { sale.close() }
        bridge.child.signal(SIGTERM)
        #expect(
            bridge.child.waitForErrorLine(containingAll: [
                "signal received: shutting down gracefully", "signal=SIGTERM",
            ])
                != nil)
        let line = bridge.child.waitForErrorLine(containing: "draining", timeout: 10)
        #expect(
            line?.contains("given up to shutdownGraceMs to end") == true && line?.contains("graceMs=2000") == true
                && line?.contains("inFlight=1") == true,
            "\(line ?? bridge.child.errorOutput)")
        #expect(line?.contains("notice") == true, "\(line ?? "")")
        #expect(bridge.child.waitForExit(timeout: 20) == 0)
    }

    @Test("a second SIGINT during a graceful shutdown that waits for a sale stops the bridge at once (exit 1)")
    func secondSignalStopsAtOnce() throws {
        let (bridge, sale) = try RunningBridge.holdingASale(grace: 600_000)
        defer { sale.close() }
        bridge.child.signal(SIGINT)
        let deadline = Date().addingTimeInterval(10)
        while !bridge.child.errorOutput.contains("shutting down gracefully"), Date() < deadline {
            _ = try bridge.call(#"{"id":"p","action":"ping"}"#)
        }
        bridge.child.signal(SIGINT)
        #expect(bridge.child.waitForExit(timeout: 10) == 1)
        #expect(bridge.child.errorOutput.contains("stopping at once"))
    }
}
