import Bridge
import Foundation
import GRDB
import InterApp
import Logging
import TerminalSimulator
import Testing
import ZeroMQ

/// Faults of the journal end loud and never lose a result nor invite a second charge (issue 18, items
/// 4 to 6).
@Suite("Journal faults: write failures, a deleted file, a damaged file, orphan floods")
struct JournalFaultTests {
    private static func quietLane(_ id: String = "lane-1") -> SimulatedLane {
        var behaviour = LaneBehaviour()
        behaviour.fault = .neverAnswer
        return SimulatedLane(id: id, endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)
    }

    private static func success(_ id: String, amount: Int) -> String {
        "interapp-callback://result?status=success&action=sale&clientTransactionId=\(id)&amount=\(amount)"
    }

    /// A stopped bridge's journal in `folder` holding `sales` sales to a lane with no relay (each journaled:
    /// accepted, then undeliverable); the configuration that made it, and a logger that says nothing.
    private static func journalOfUndeliverableSales(_ sales: Int, in folder: URL) throws -> (
        BridgeConfiguration, Logger
    ) {
        var configuration = BridgeConfiguration()
        configuration.command = "tcp://127.0.0.1:*"
        configuration.events = "tcp://127.0.0.1:*"
        configuration.journal = folder.appendingPathComponent("journal.sqlite").path
        configuration.lanes = [LaneConfiguration(id: "lane-1", endpoint: "tcp://127.0.0.1:1", platform: .ios)]
        let logger = Logger(label: "t", factory: { _ in SwiftLogNoOpLogHandler() })
        let first = try Bridge(configuration: configuration, logger: logger)
        let bound = try first.start()
        let context = try ZeroMQ.Context()
        let client = try ZeroMQ.Socket(context, .dealer)
        try client.setReceiveTimeout(10_000)
        try client.connect(bound.command)
        for index in 0..<sales {
            try client.send([Array(saleJSON(id: "s\(index)", lane: "lane-1", amount: 100 + index).utf8)])
            _ = try #require(try client.receive())
        }
        client.close()
        context.terminate()
        first.halt()
        return (configuration, logger)
    }

    @Test("while the journal cannot be written: new sales are refused and never sent, results wait, then all resumes")
    func writeFailureHoldsAndResumes() throws {
        let harness = try BridgeHarness(lanes: [Self.quietLane(), Self.quietLane("lane-2")])
        let tap = try TapReader(harness.bridge)
        defer { tap.close() }
        let firstCount = try tap.today(after: -1)
        #expect(firstCount.counts.isEmpty, "nothing ended yet: \(firstCount.counts)")
        try harness.send(saleJSON(id: "before", lane: "lane-1", amount: 700))
        try harness.event("lane-1.sale.delivered") { $0.string("id") == "before" }
        // Another connection takes the write lock: every write of the bridge fails (busy) as on a full disk.
        let lock = try JournalWriteLock(journal: harness.configuration.journal)
        try harness.send(saleJSON(id: "victim", lane: "lane-2", amount: 800))
        let victim = try harness.reply(to: "victim", timeoutMs: 20_000)
        #expect(victim.object("error")?.string("code") == "journal_unavailable")
        try harness.event("bridge.journal.unavailable", timeoutMs: 1000)
        #expect(harness.simulator.openedURLs(lane: "lane-2").isEmpty, "a sale that was never journaled left")
        #expect(try harness.call(#"{"id":"p","action":"ping"}"#).string("outcome") == "success")
        let refused = try harness.call(saleJSON(id: "during", lane: "lane-2", amount: 900))
        #expect(refused.object("error")?.string("code") == "journal_unavailable")
        harness.simulator.injectCallback(lane: "lane-1", url: Self.success("before", amount: 700))
        try lock.release()
        let before = try harness.reply(to: "before", timeoutMs: 20_000)
        #expect(before.string("outcome") == "success")
        try harness.event("bridge.journal.available")
        let status = try harness.call(#"{"id":"st","action":"status","ref":"before"}"#)
        #expect(status.object("result")?.string("outcome") == "success")
        try harness.send(saleJSON(id: "after", lane: "lane-2", amount: 100))
        try harness.event("lane-2.sale.delivered") { $0.string("id") == "after" }
        #expect(harness.simulator.openedURLs(lane: "lane-2").count == 1)
        // Today's counts: the result held through the failure counted once, the refused sales not at all.
        #expect(try tap.today(after: firstCount.seq).counts == ["sale": ["success": 1]])
    }

    @Test(
        "a failed commit: a rolled-back sale's events never leave; one that ended in it keeps its reply alone, sent at once"
    )
    func rolledBackEffectsNeverLeave() throws {
        let harness = try BridgeHarness(lanes: [Self.quietLane(), Self.quietLane("lane-2")]) { configuration in
            // A lane whose relay is not there: a sale on it ends undeliverable in the turn that accepts it.
            configuration.lanes.append(LaneConfiguration(id: "lane-off", endpoint: "tcp://127.0.0.1:1", platform: .ios))
        }
        try harness.send(saleJSON(id: "before", lane: "lane-1", amount: 700))
        try harness.event("lane-1.sale.delivered") { $0.string("id") == "before" }
        let lock = try JournalWriteLock(journal: harness.configuration.journal)
        // A result to hold until writes work again, then a sale to roll back and one that ends at once.
        harness.simulator.injectCallback(lane: "lane-1", url: Self.success("before", amount: 700))
        try harness.send(saleJSON(id: "victim", lane: "lane-2", amount: 800))
        try harness.send(saleJSON(id: "offline", lane: "lane-off", amount: 300))
        let offline = try harness.reply(to: "offline", timeoutMs: 20_000)
        #expect(offline.string("outcome") == "undeliverable")
        let victim = try harness.reply(to: "victim", timeoutMs: 20_000)
        #expect(victim.object("error")?.string("code") == "journal_unavailable")
        try lock.release()
        #expect(try harness.reply(to: "before", timeoutMs: 20_000).string("outcome") == "success")
        try harness.event("bridge.journal.available")
        // Whatever the failed turns held has left by the time a new sale's events do.
        try harness.send(saleJSON(id: "after", lane: "lane-2", amount: 100))
        try harness.event("lane-2.sale.delivered") { $0.string("id") == "after" }
        let leaked = harness.events.filter { ["victim", "offline"].contains($0.body.string("id")) }
        #expect(leaked.isEmpty, "events of rolled-back or unjournaled commands left: \(leaked.map(\.topic))")
        #expect(harness.simulator.openedURLs(lane: "lane-2").count == 1, "the rolled-back sale's URL left")
    }

    @Test(
        "a journal deleted while running: noticed within a second, new commands refused, the sale in flight still answered"
    )
    func deletedJournal() throws {
        let harness = try BridgeHarness(lanes: [Self.quietLane()])
        try harness.send(saleJSON(id: "inflight", lane: "lane-1", amount: 500))
        try harness.event("lane-1.sale.delivered") { $0.string("id") == "inflight" }
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: harness.configuration.journal + suffix)
        }
        let event = try harness.event("bridge.journal.unavailable")
        #expect(event.string("reason")?.contains("deleted") == true)
        let refused = try harness.call(saleJSON(id: "new", lane: "lane-1", amount: 600))
        #expect(refused.object("error")?.string("code") == "journal_unavailable")
        #expect(try harness.call(#"{"id":"p","action":"ping"}"#).string("outcome") == "success")
        harness.simulator.injectCallback(lane: "lane-1", url: Self.success("inflight", amount: 500))
        #expect(try harness.reply(to: "inflight").string("outcome") == "success")
        #expect(harness.logs.text.contains("was deleted while the bridge ran"))
    }

    @Test("a damaged journal is refused at start with a message that says how to recover")
    func damagedJournalRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-damaged-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (configuration, logger) = try Self.journalOfUndeliverableSales(300, in: folder)
        let path = folder.appendingPathComponent("journal.sqlite").path
        // Junk over one page in the middle: the schema still reads, the commands' b-tree does not.
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        let size = try handle.seekToEnd()
        #expect(size > 16 * 4096)
        try handle.seek(toOffset: (size / 2) / 4096 * 4096)
        handle.write(Data(repeating: 0xA5, count: 4096))
        try handle.close()
        let bridge = try Bridge(configuration: configuration, logger: logger)
        do {
            try bridge.start()
            bridge.halt()
            Issue.record("a damaged journal was served")
        } catch {
            let text = "\(error)"
            #expect(text.contains(path))
            #expect(text.lowercased().contains("restore it from a backup"), "\(text)")
            #expect(text.contains("is damaged"), "\(text)")
        }
    }

    @Test(
        "an index that no longer matches its table (quick_check passes it) is refused at start, as journal check refuses it"
    )
    func mismatchedIndexRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-index-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (configuration, logger) = try Self.journalOfUndeliverableSales(5, in: folder)
        let path = configuration.journal
        let (rootPage, pageSize) = try DatabaseQueue(path: path).read { db in
            (
                try #require(
                    try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_schema WHERE name = 'outcome_log_command'")),
                try #require(try Int.fetchOne(db, sql: "PRAGMA page_size"))
            )
        }
        // The index's root page made an empty index leaf: the b-tree is well formed, its entries are gone.
        var emptyLeaf = [UInt8](repeating: 0, count: pageSize)
        emptyLeaf[0] = 0x0A
        emptyLeaf[5] = UInt8((pageSize >> 8) & 0xFF)
        emptyLeaf[6] = UInt8(pageSize & 0xFF)
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: UInt64((rootPage - 1) * pageSize))
        handle.write(Data(emptyLeaf))
        try handle.close()
        let quick = try DatabaseQueue(path: path).read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
        #expect(quick == ["ok"], "the damage must be one quick_check misses: \(quick)")
        let checked = try JournalMaintenance.integrityProblems(path: path)
        #expect(checked != ["ok"], "journal check must call it damaged")
        let bridge = try Bridge(configuration: configuration, logger: logger)
        do {
            try bridge.start()
            bridge.halt()
            Issue.record("a journal that journal check calls damaged was served")
        } catch {
            let text = "\(error)"
            #expect(text.contains(path), "\(text)")
            #expect(text.contains("is damaged"), "\(text)")
            #expect(text.contains("vivabridge journal check"), "\(text)")
        }
    }

    @Test("an orphan flood is bounded: 10 a second per lane are journaled, the rest counted and summarized")
    func orphanFlood() throws {
        let harness = try BridgeHarness(lanes: [Self.quietLane()])
        for index in 0..<300 {
            harness.simulator.injectCallback(
                lane: "lane-1",
                url: "interapp-callback://result?status=success&action=sale&clientTransactionId=x\(index)")
        }
        try harness.awaitFault(lane: "lane-1", "orphansSuppressed", atLeast: 250)
        let reader = try DatabaseQueue(path: harness.configuration.journal)
        defer { try? reader.close() }
        let deadline = Date().addingTimeInterval(10)
        var summarized = 0
        repeat {
            summarized = try reader.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM callbacks WHERE disposition = 'orphans-suppressed'")
                    ?? 0
            }
        } while summarized == 0 && Date() < deadline
        #expect(summarized >= 1)
        let journaled = try reader.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM callbacks WHERE disposition = 'orphan'") ?? 0
        }
        #expect(journaled < 60, "journaled \(journaled) orphans of 300")
    }
}
