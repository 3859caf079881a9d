import Bridge
import Foundation
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

/// The event tap (what `/events` reads): a turn's events go out as one message of topic and body pairs.
@Suite("Event tap: one message a turn")
struct EventTapTests {
    @Test("a turn's events travel in one tap message, as topic and body pairs, in seq order")
    func turnInOneMessage() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)
        ])
        let tap = try harness.bridge.makeTapSubscriber()
        defer { tap.close() }
        try tap.setReceiveTimeout(200)
        harness.bridge.tap.viewers(adding: 1)
        defer { harness.bridge.tap.viewers(adding: -1) }
        let topics = ["lane-1.sale.accepted", "lane-1.sale.forwarded", "lane-1.sale.delivered", "lane-1.sale.result"]
        var messages: [[[UInt8]]] = []
        var saleId = ""
        // A subscription takes effect some time after the connection: sell until one sale's events all arrive.
        for attempt in 0..<25 {
            saleId = "tap-\(attempt)"
            let reply = try harness.call(saleJSON(id: saleId, lane: "lane-1", amount: 100))
            #expect(reply.string("outcome") == "success")
            messages = []
            while let frames = try tap.receive() { messages.append(frames) }
            if Self.events(in: messages, id: saleId).map(\.topic) == topics { break }
        }
        #expect(messages.allSatisfy { $0.count >= 2 && $0.count % 2 == 0 }, "every message is topic and body pairs")
        let sale = Self.events(in: messages, id: saleId)
        #expect(sale.map(\.topic) == topics)
        let seqs = sale.compactMap { $0.body.int("seq") }
        #expect(seqs.count == 4 && seqs == seqs.sorted() && Set(seqs).count == 4, "seq in order: \(seqs)")
        // `accepted` leaves when its commit is acknowledged and `forwarded` once its URL is sent, in the same turn.
        let together = messages.contains { frames in
            let names = stride(from: 0, to: frames.count - 1, by: 2).map { String(decoding: frames[$0], as: UTF8.self) }
            return names.contains("lane-1.sale.accepted") && names.contains("lane-1.sale.forwarded")
        }
        #expect(together, "accepted and forwarded of one turn in one message: \(messages.map(\.count))")
    }

    /// The events about `id`, in the order the messages and their pairs carry them.
    private static func events(in messages: [[[UInt8]]], id: String) -> [(topic: String, body: JSONObject)] {
        messages.flatMap { frames in
            stride(from: 0, to: frames.count - 1, by: 2).compactMap { index -> (topic: String, body: JSONObject)? in
                guard let body = try? JSONValue.parse(frames[index + 1]).objectValue, body.string("id") == id else {
                    return nil
                }
                return (String(decoding: frames[index], as: UTF8.self), body)
            }
        }
    }
}
