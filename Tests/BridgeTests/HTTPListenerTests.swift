import Bridge
import Foundation
import InterApp
import Logging
import TerminalSimulator
import Testing
import ZeroMQ

/// The HTTP listener's health and readiness, over real HTTP on loopback (docs/OPERATIONS.md, "HTTP").
@Suite("HTTP listener: health and readiness")
struct HTTPListenerTests {
    @Test(
        "/readyz is 503 starting before the bridge binds, 200 with each lane's link once it runs, 503 draining, then stopped"
    )
    func readinessFollowsTheBridge() async throws {
        var behaviour = LaneBehaviour()
        behaviour.cardPresentment = .manual
        let simulator = Simulator(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)
        ])
        let endpoints = try simulator.start()
        defer { simulator.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-http-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = BridgeConfiguration()
        configuration.command = "tcp://127.0.0.1:*"
        configuration.events = "tcp://127.0.0.1:*"
        configuration.journal = folder.appendingPathComponent("journal.sqlite").path
        configuration.terminal.merchantKey = "KEY"
        configuration.shutdownGraceMs = 30_000
        configuration.lanes = [
            LaneConfiguration(
                id: "lane-1", endpoint: endpoints["lane-1"]!, platform: .ios, terminal: configuration.terminal),
            // Nothing listens here: this lane stays down.
            LaneConfiguration(
                id: "lane-2", endpoint: "tcp://127.0.0.1:1", platform: .ios, terminal: configuration.terminal),
        ]
        let bridge = try Bridge(configuration: configuration, logger: Logger(label: "http-test"))
        let listener = try await RunningListener(bridge: bridge)

        let starting = try await HTTPProbe.get("/readyz", port: listener.port)
        #expect(starting.status == 503)
        #expect(try Self.object(starting.body).string("status") == "starting")
        #expect(try await HTTPProbe.get("/healthz", port: listener.port).status == 503)

        let bound = try bridge.start()
        #expect(simulator.waitForHello(lane: "lane-1", timeout: .seconds(10)))
        let ready = try await Self.poll(listener.port, "/readyz") { answer in
            answer.status == 200 && (try? Self.object(answer.body).object("lanes")?.string("lane-1")) == "up"
        }
        #expect(ready.headers["content-type"] == "application/json")
        #expect(try Self.object(ready.body).object("lanes") == ["lane-1": .string("up"), "lane-2": .string("down")])
        let health = try await HTTPProbe.get("/healthz", port: listener.port)
        #expect(health.status == 200)
        let healthBody = try Self.object(health.body)
        #expect(healthBody.string("status") == "ok")
        #expect(healthBody.int("epoch") == bridge.live.epoch)
        #expect(bridge.live.epoch >= 1)

        // A sale waiting for its card keeps the bridge draining after the shutdown starts.
        let context = try Context()
        defer { context.terminate() }
        let client = try Socket(context, .dealer)
        defer { client.close() }
        try client.connect(bound.command)
        try client.send([Array(saleJSON(id: "held", lane: "lane-1", amount: 100).utf8)])
        #expect(simulator.waitForPhase(lane: "lane-1", .cardPresentment, timeout: .seconds(10)))
        // The lanes page shows the age of what is in flight: `since` in the `lanes` answer.
        try client.setReceiveTimeout(10_000)
        try client.send([Array(#"{"id":"q","action":"lanes"}"#.utf8)])
        let lanesReply = try BridgeHarness.object(try #require(try client.receive()).last!)
        let inFlight = lanesReply.object("result")?["lanes"]?.arrayValue?.first?.objectValue?.object("inFlight")
        #expect(inFlight?.string("id") == "held")
        #expect(inFlight?.string("since")?.hasPrefix("20") == true)
        bridge.shutdown()
        let draining = try await Self.poll(listener.port, "/readyz") { $0.status == 503 }
        #expect(try Self.object(draining.body).string("status") == "draining")
        #expect(try await HTTPProbe.get("/healthz", port: listener.port).status == 200, "a draining bridge is alive")

        bridge.halt()
        let stopped = try await HTTPProbe.get("/readyz", port: listener.port)
        #expect(stopped.status == 503)
        #expect(try Self.object(stopped.body).string("status") == "stopped")
        let dead = try await HTTPProbe.get("/healthz", port: listener.port)
        #expect(dead.status == 503, "a loop that no longer turns is not healthy")
        await listener.stop()
    }

    /// Asks `path` until `done` holds (at most 10 s), returning the last answer.
    static func poll(_ port: Int, _ path: String, until done: (HTTPProbe.Answer) -> Bool) async throws
        -> HTTPProbe.Answer
    {
        var answer = try await HTTPProbe.get(path, port: port)
        for _ in 0..<200 where !done(answer) {
            try await Task.sleep(for: .milliseconds(50))
            answer = try await HTTPProbe.get(path, port: port)
        }
        #expect(done(answer), "\(path) never reached the expected answer; last: \(answer.status) \(answer.body)")
        return answer
    }

    static func object(_ text: String) throws -> JSONObject {
        try #require(try JSONValue.parse(Array(text.utf8)).objectValue, "not a JSON object: \(text)")
    }
}
