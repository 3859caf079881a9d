import Bridge
import Foundation
import GRDB
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

/// The relay link's acknowledgement (PROTOCOL.md §5, v1.3): a numbered callback is answered `received` once
/// its outcome is journaled, a second copy of one changes nothing, and a v1.2 relay's callback is still taken.
@Suite("Relay acknowledgements")
struct RelayReceivedTests {
    private static func harness(_ relay: HostileRelay) throws -> BridgeHarness {
        var behaviour = LaneBehaviour()
        behaviour.fault = .neverAnswer
        return try BridgeHarness.driving(relay, as: "hostile", platform: .ios, simulatedBehaviour: behaviour)
    }

    private static func url(_ query: String) -> [UInt8] { Array("interapp-callback://result?\(query)".utf8) }

    /// Sends sale `id` on the relay's lane and answers its `open` with `opened`.
    private static func open(_ id: String, amount: Int, harness: BridgeHarness, relay: HostileRelay) throws {
        try harness.send(saleJSON(id: id, lane: "hostile", amount: amount))
        let open = try relay.awaitOpen()
        #expect(open.ref == id)
        try relay.send(.opened(ref: Array(open.ref.utf8)))
    }

    @Test("a numbered callback is answered received, after its sale's reply; a v1.2 callback ends its sale unanswered")
    func numberedAndUnnumbered() throws {
        let context = try Context()
        defer { context.terminate() }
        let relay = try HostileRelay(context: context)
        let harness = try Self.harness(relay)

        try Self.open("old-relay", amount: 500, harness: harness, relay: relay)
        try relay.send(.callback(url: Self.url("status=success&action=sale&clientTransactionId=old-relay&amount=500")))
        #expect(try harness.reply(to: "old-relay").string("outcome") == "success")

        try Self.open("new-relay", amount: 600, harness: harness, relay: relay)
        try relay.send(
            .callback(url: Self.url("status=success&action=sale&clientTransactionId=new-relay&amount=600"), seq: 7))
        try relay.awaitReceived(7)
        // Everything the bridge sent on the link before: the v1.2 callback got no answer.
        #expect(!relay.received.contains { $0.kind == .received }, "\(relay.received)")
        #expect(try harness.reply(to: "new-relay").string("outcome") == "success")
    }

    @Test(
        "a second copy of a numbered callback is answered received and changes nothing, even where it would match the sale now in flight"
    )
    func copyChangesNothing() throws {
        let context = try Context()
        defer { context.terminate() }
        let relay = try HostileRelay(context: context)
        let harness = try Self.harness(relay)
        // No clientTransactionId: a callback that would end whichever sale is in flight.
        let approved = Self.url("status=success&action=sale&amount=300")

        try Self.open("first", amount: 300, harness: harness, relay: relay)
        try relay.send(.callback(url: approved, seq: 1))
        try relay.awaitReceived(1)
        #expect(try harness.reply(to: "first").string("outcome") == "success")

        try Self.open("second", amount: 300, harness: harness, relay: relay)
        try relay.send(.callback(url: approved, seq: 1))  // the received above was lost, say
        try relay.awaitReceived(1)
        try relay.send(
            .callback(
                url: Self.url("status=fail&action=sale&clientTransactionId=second&message=Declined&amount=300"), seq: 2)
        )
        try relay.awaitReceived(2)
        let second = try harness.reply(to: "second")
        #expect(second.string("outcome") == "failure", "\(second)")
        #expect(harness.logs.hasLine(containingAll: ["relay sent again a callback the bridge already took"]))
    }

    @Test(
        "while the journal cannot be written, a callback is not answered, nor its copy; received leaves once its outcome is in the journal file"
    )
    func receivedWaitsForTheCommit() throws {
        let context = try Context()
        defer { context.terminate() }
        let relay = try HostileRelay(context: context)
        let harness = try Self.harness(relay)
        try Self.open("held", amount: 900, harness: harness, relay: relay)
        // Another connection takes the write lock: the bridge's next write fails, as on a full disk.
        let lock = try JournalWriteLock(journal: harness.configuration.journal)
        let refused = try harness.call(saleJSON(id: "refused", lane: "lane-1", amount: 100))
        #expect(refused.object("error")?.string("code") == "journal_unavailable")
        let approved = Self.url("status=success&action=sale&clientTransactionId=held&amount=900")
        try relay.send(.callback(url: approved, seq: 1))
        try relay.send(.callback(url: approved, seq: 1))
        // Once the copy is logged, both were taken.
        #expect(harness.logs.waitForLine(containing: "relay sent again a callback", timeout: 10) != nil)
        let early = try relay.drain(forMs: 300)
        #expect(!early.contains { $0.kind == .received }, "\(early)")

        try lock.release()
        try relay.awaitReceived(1)
        let journaled = try DatabaseQueue(path: harness.configuration.journal).read { db in
            try String.fetchOne(db, sql: "SELECT disposition FROM callbacks WHERE matched_id = 'held'")
        }
        #expect(journaled == "matched")
        #expect(try harness.reply(to: "held").string("outcome") == "success")
    }

    @Test("a restarted relay's callback under a number already used is a new one: taken and answered")
    func restartedRelayNumbersAgain() throws {
        let context = try Context()
        defer { context.terminate() }
        let relay = try HostileRelay(context: context)
        let harness = try Self.harness(relay)
        try Self.open("before", amount: 400, harness: harness, relay: relay)
        try relay.send(
            .callback(url: Self.url("status=success&action=sale&clientTransactionId=before&amount=400"), seq: 1))
        try relay.awaitReceived(1)
        #expect(try harness.reply(to: "before").string("outcome") == "success")

        try Self.open("after", amount: 400, harness: harness, relay: relay)
        try relay.send(
            .callback(url: Self.url("status=success&action=sale&clientTransactionId=after&amount=400"), seq: 1))
        try relay.awaitReceived(1)
        #expect(try harness.reply(to: "after").string("outcome") == "success")
    }
}
