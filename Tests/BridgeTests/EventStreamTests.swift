import Bridge
import Foundation
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

/// `GET /events`: a `lanes` snapshot, then the very events the events socket publishes, as server-sent
/// events over real HTTP.
@Suite("HTTP listener: /events")
struct EventStreamTests {
    @Test("a viewer gets the lanes snapshot first, then the sale's events with the same seq as the events socket")
    func snapshotThenEvents() async throws {
        let harness = try BridgeHarness.lanes(.ios, .android)
        let listener = try await RunningListener(bridge: harness.bridge)
        let command = harness.bound.command
        let lines = try await HTTPProbe.events(
            port: listener.port,
            onOpen: { try Self.send(saleJSON(id: "sse-1", lane: "lane-2", amount: 700), to: command) },
            until: { $0.contains { $0.contains(#""topic":"lane-2.sale.result""#) } })
        let objects = try lines.map { try BridgeHarness.object(Array($0.utf8)) }
        let snapshot = try #require(objects.first)
        #expect(snapshot.string("topic") == "lanes")
        #expect(snapshot.int("epoch") == harness.bridge.live.epoch)
        let lanes = snapshot["lanes"]?.arrayValue?.compactMap { $0.objectValue?.string("lane") }
        #expect(lanes == ["lane-1", "lane-2"])
        let snapshotSeq = try #require(snapshot.int("seq"))
        let sale = objects.dropFirst().filter { $0.string("id") == "sse-1" }
        #expect(
            sale.map { $0.string("topic") }
                == ["lane-2.sale.accepted", "lane-2.sale.forwarded", "lane-2.sale.delivered", "lane-2.sale.result"])
        #expect(objects.dropFirst().allSatisfy { ($0.int("seq") ?? 0) > snapshotSeq }, "only events after the snapshot")
        // The same event, built once, reaches both: same seq, same time, same body.
        let viaSocket = try harness.event("lane-2.sale.result") { $0.string("id") == "sse-1" }
        let viaHTTP = try #require(sale.last)
        #expect(viaHTTP.int("seq") == viaSocket.int("seq"))
        #expect(viaHTTP.string("time") == viaSocket.string("time"))
        #expect(viaHTTP.string("outcome") == "success")
        var stripped = viaHTTP
        stripped["topic"] = nil
        #expect(stripped == viaSocket)
        // What the page shows after a reload: the lane's last result is in the snapshot too.
        let lanesReply = try harness.call(#"{"id":"l-1","action":"lanes"}"#)
        let laneTwo = lanesReply.object("result")?["lanes"]?.arrayValue?.last?.objectValue
        let last = try #require(laneTwo?.object("lastResult"))
        #expect(last.string("id") == "sse-1")
        #expect(last.string("outcome") == "success")
        #expect(last.int("amount") == 700)
        #expect(last.string("action") == "sale")
        #expect(last.string("at")?.hasSuffix("+00:00") == true, "when it became final, ISO 8601 in UTC")
        await listener.stop()
    }

    @Test("each viewer gets its own snapshot; a viewer that leaves is forgotten, so the loop stops feeding the tap")
    func viewersComeAndGo() async throws {
        let harness = try BridgeHarness.lanes(.ios)
        let listener = try await RunningListener(bridge: harness.bridge)
        for round in 0..<3 {
            let lines = try await HTTPProbe.events(port: listener.port, until: { !$0.isEmpty })
            #expect(lines.first?.contains(#""topic":"lanes""#) == true, "round \(round)")
        }
        // Each viewer's connection closed; the hub notices on its next write (a heartbeat at the latest).
        #expect(try await Self.waitUntil { harness.bridge.tap.viewers == 0 })
        await listener.stop()
    }

    @Test("a viewer with topic prefixes gets a snapshot of its lanes alone, without today, and only their events")
    func filteredViewer() async throws {
        let harness = try BridgeHarness.lanes(.ios, .ios)
        let listener = try await RunningListener(bridge: harness.bridge)
        let command = harness.bound.command
        let lines = try await HTTPProbe.events(
            "/events?topic=lane-1.&topic=lane-1.sale.", port: listener.port,
            onOpen: {
                // lane-2's sale ends before lane-1's is sent: a viewer shown it would have it first.
                try Self.send(saleJSON(id: "other", lane: "lane-2", amount: 100), to: command)
                try Self.send(saleJSON(id: "mine", lane: "lane-1", amount: 200), to: command)
            },
            until: { $0.contains { $0.contains(#""topic":"lane-1.sale.result""#) } })
        let objects = try lines.map { try BridgeHarness.object(Array($0.utf8)) }
        let snapshot = try #require(objects.first)
        #expect(snapshot.string("topic") == "lanes")
        #expect(snapshot["lanes"]?.arrayValue?.compactMap { $0.objectValue?.string("lane") } == ["lane-1"])
        #expect(snapshot["today"] == nil, "the day's counts are the whole bridge's: not in a filtered snapshot")
        let topics = objects.dropFirst().compactMap { $0.string("topic") }
        #expect(topics.contains("lane-1.sale.result"))
        #expect(topics.allSatisfy { $0.hasPrefix("lane-1.") || $0.hasPrefix("bridge.") }, "\(topics)")
        #expect(objects.dropFirst().filter { $0.string("topic") == "lane-1.sale.result" }.count == 1, "sent once")
        await listener.stop()
    }

    @Test("an empty topic is every event: the whole snapshot, today's counts in it")
    func emptyTopic() async throws {
        let harness = try BridgeHarness.lanes(.ios, .ios)
        let listener = try await RunningListener(bridge: harness.bridge)
        let lines = try await HTTPProbe.events("/events?topic=", port: listener.port, until: { !$0.isEmpty })
        let snapshot = try BridgeHarness.object(Array(try #require(lines.first).utf8))
        #expect(snapshot["lanes"]?.arrayValue?.count == 2)
        #expect(snapshot["today"] != nil)
        await listener.stop()
    }

    @Test("a misspelt parameter or too many prefixes is refused with 400, saying what /events takes")
    func refusedQueries() async throws {
        let harness = try BridgeHarness.lanes(.ios)
        let listener = try await RunningListener(bridge: harness.bridge)
        let misspelt = try await HTTPProbe.get("/events?topics=lane-1.", port: listener.port)
        #expect(misspelt.status == 400)
        #expect(misspelt.body.contains(#"unknown parameter \"topics\""#), "\(misspelt.body)")
        #expect(misspelt.body.contains("topic=PREFIX"))
        let many = (0...64).map { "topic=lane-\($0)." }.joined(separator: "&")
        let tooMany = try await HTTPProbe.get("/events?\(many)", port: listener.port)
        #expect(tooMany.status == 400)
        #expect(tooMany.body.contains("65 topic prefixes; at most 64"), "\(tooMany.body)")
        #expect(harness.bridge.tap.viewers == 0, "a refused query is no viewer")
        await listener.stop()
    }

    static func send(_ json: String, to endpoint: String) throws {
        let context = try Context()
        defer { context.terminate() }
        let socket = try Socket(context, .dealer)
        defer { socket.close() }
        try socket.setReceiveTimeout(10_000)
        try socket.connect(endpoint)
        try socket.send([Array(json.utf8)])
        _ = try socket.receive()
    }

    static func waitUntil(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<200 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }
}
