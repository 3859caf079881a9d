import BridgeClient
import Foundation
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

@Suite("The bridge as a process: SIGKILL, restart on the same journal, nothing lost")
struct CrashRecoveryTests {
    @Test("a sale in flight survives a SIGKILL of the bridge: its callback after the restart completes it")
    func crashAndRecover() throws {
        var behaviour = LaneBehaviour()
        behaviour.host = .manual
        let simulator = Simulator(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)
        ])
        let endpoints = try simulator.start()
        defer { simulator.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let configPath = folder.appendingPathComponent("bridge.yaml").path
        try """
        command: tcp://127.0.0.1:*
        events: tcp://127.0.0.1:*
        journal: \(folder.path)/journal.sqlite
        terminal: {merchantKey: CRASH-KEY}
        lanes:
          - {id: lane-1, endpoint: "\(endpoints["lane-1"]!)", platform: ios}
        """.write(toFile: configPath, atomically: true, encoding: .utf8)
        let context = try Context()
        defer { context.terminate() }

        let first = try ChildProcess(["run", "--config", configPath])
        let firstCommand = try #require(
            Self.endpoint(first, "commands (ROUTER):"), "first bridge never listened: \(first.errorOutput)")
        let client = try Socket(context, .dealer)
        defer { client.close() }
        try client.setReceiveTimeout(15_000)
        try client.connect(firstCommand)
        #expect(
            simulator.waitForHello(lane: "lane-1", count: 1, timeout: .seconds(15)), "the first bridge never said hello"
        )
        #expect(try awaitLanesUp(command: firstCommand, ["lane-1"]), "the relay never answered the first bridge")
        try client.send([saleLine()])
        #expect(simulator.waitForPhase(lane: "lane-1", .host, timeout: .seconds(15)))
        first.signal(SIGKILL)
        _ = first.waitForExit()

        let second = try ChildProcess(["run", "--config", configPath])
        defer {
            second.signal(SIGTERM)
            #expect(second.waitForExit() == 0)
        }
        let command = try #require(Self.endpoint(second, "commands (ROUTER):"))
        let events = try #require(Self.endpoint(second, "events   (XPUB):"))
        let subscriber = try Socket(context, .sub)
        defer { subscriber.close() }
        let monitor = try subscriber.openMonitor(events: .handshakeSucceeded)
        try monitor.setReceiveTimeout(10_000)
        try subscriber.subscribe("lane-1.")
        try subscriber.connect(events)
        _ = try #require(try monitor.receiveMonitorEvent())
        try subscriber.stopMonitor()
        monitor.close()
        let asker = try Socket(context, .dealer)
        defer { asker.close() }
        try asker.setReceiveTimeout(10_000)
        try asker.connect(command)
        #expect(
            simulator.waitForHello(lane: "lane-1", count: 2, timeout: .seconds(15)),
            "the restarted bridge never said hello")
        // The subscription reaches the bridge some time after the handshake: probe with a harmless
        // orphan callback until one is published to us.
        let subscribed = try SubscriptionProbe.await(on: subscriber, lane: "lane-1") {
            simulator.injectCallback(lane: "lane-1", url: SubscriptionProbe.callbackURL)
        }
        try #require(subscribed)
        simulator.release(lane: "lane-1")
        try subscriber.setReceiveTimeout(15_000)
        var resultEvent: JSONObject?
        while resultEvent == nil, let frames = try subscriber.receive() {
            let body = try JSONValue.parse(frames[1]).objectValue
            if body?["id"]?.stringValue == "crash-sale", String(decoding: frames[0], as: UTF8.self).hasSuffix("result")
            {
                resultEvent = body
            }
        }
        #expect(resultEvent?["outcome"]?.stringValue == "success")
        try asker.send([Array(#"{"id":"st","action":"status","ref":"crash-sale"}"#.utf8)])
        let status = try JSONValue.parse(try #require(try asker.receive()).last!).objectValue
        #expect(status?["result"]?.objectValue?["outcome"]?.stringValue == "success")
        #expect(simulator.openedURLs(lane: "lane-1").count == 1)
    }

    private func saleLine() -> [UInt8] {
        Array(#"{"id":"crash-sale","lane":"lane-1","action":"sale","amount":1234}"#.utf8)
    }

    static func endpoint(_ process: ChildProcess, _ label: String) -> String? {
        guard let line = process.waitForLine(containing: label) else { return nil }
        return line.components(separatedBy: label).last?.trimmingCharacters(in: .whitespaces)
    }
}
