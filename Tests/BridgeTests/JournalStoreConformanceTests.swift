import Foundation
import InterApp
import LocalPostgres
import Synchronization
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// The journal's seam (``JournalStore``) as every store must keep it: each test runs on SQLite, on a real
/// PostgreSQL 15 cluster and on the tests' in-memory store (``MemoryJournal``), with no bridge around it, so
/// that a store is judged by the protocol alone.
@Suite("Every journal store keeps the JournalStore contract")
struct JournalStoreConformanceTests {
    /// The stores the bridge can run on.
    enum Store: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgresql, memory

        var testDescription: String { rawValue }

        /// A new, empty journal's `journal:` value: a file in a folder of its own, a database of its own, or a
        /// name for a log held in memory.
        func newJournal() throws -> String {
            switch self {
            case .sqlite:
                FileManager.default.temporaryDirectory
                    .appendingPathComponent("vivabridge-conformance-\(UUID().uuidString)/journal.sqlite").path
            case .postgresql:
                try PostgresCluster.shared().createDatabase()
            case .memory:
                "memory:\(UUID().uuidString)"
            }
        }
    }

    /// The in-memory journals by name: opening one again finds the same log, as a file or a database would.
    private static let memoryJournals = Mutex<[String: MemoryJournal]>([:])

    /// Opens `journal`, runs `body` on it and closes it, whatever `body` did.
    private static func with<T>(_ journal: String, _ body: (any JournalStore) throws -> T) throws -> T {
        let store: any JournalStore =
            if journal.hasPrefix("memory:") {
                memoryJournals.withLock { journals in
                    let store = journals[journal] ?? MemoryJournal()
                    journals[journal] = store
                    return store
                }
            } else {
                try JournalStores.open(journal, sync: .normal)
            }
        defer { store.close() }
        return try body(store)
    }

    /// Runs `body` on a new, empty journal of `kind`, then removes it.
    private static func onNewJournal<T>(_ kind: Store, _ body: (any JournalStore) throws -> T) throws -> T {
        let journal = try kind.newJournal()
        defer { cleanUp(journal) }
        return try with(journal, body)
    }

    /// Removes what a SQLite journal left in its folder.
    private static func cleanUp(_ journal: String) {
        if journal.hasPrefix("memory:") { memoryJournals.withLock { $0[journal] = nil } }
        guard !PostgresAddress.isURL(journal), !journal.hasPrefix("memory:") else { return }
        try? FileManager.default.removeItem(atPath: (journal as NSString).deletingLastPathComponent)
    }

    private static func command(
        _ id: String, seq: Int64, action: TerminalAction = .sale, lane: String = "lane-1", createdMs: Int64 = 1_000
    ) -> StoredCommand {
        StoredCommand(
            id: id, lane: lane, action: action, fingerprint: #"{"id":"\#(id)","amount":1200}"#,
            clientTransactionId: "ctid-\(id)", state: .accepted, outcome: nil, reply: nil,
            deadlineMs: createdMs + 120_000, createdMs: createdMs, client: "till-7", seq: seq)
    }

    /// `command` finished with `outcome` at `atMs`, its reply naming `orderCode` when given.
    private static func final(
        _ command: StoredCommand, _ outcome: Outcome, atMs: Int64 = 2_000, orderCode: String? = nil, late: Bool = false
    ) -> JournalEntry {
        var result: JSONObject = ["amount": .number(JSONNumber(1200))]
        if let orderCode { result["orderCode"] = .string(orderCode) }
        var reply = Reply.outcome(outcome, "from the conformance suite", result: result)
        reply = reply.addressed(
            id: command.id, lane: command.lane ?? "-", action: command.action.rawValue, client: command.client)
        var finished = command
        finished.state = .final
        finished.outcome = outcome
        finished.reply = String(decoding: reply.serialized, as: UTF8.self)
        finished.deadlineMs = nil
        return .final(
            finished, summary: ReplySummary(reply: reply, fingerprint: command.fingerprint), late: late, atMs: atMs)
    }

    /// A callback that matched no command, received at `atMs`, numbered `relay` when given.
    private static func orphan(_ lane: String, atMs: Int64, relay: RelayCallbackKey? = nil) -> JournalEntry {
        .callback(
            lane: lane, atMs: atMs, fields: "status=success", matchedId: nil, commandSeq: nil, disposition: .orphan,
            relay: relay)
    }

    @Test(
        "a command is admitted before its commit, read back whole once committed, and known after a reopen",
        arguments: Store.allCases)
    func admitAndReadBack(_ kind: Store) throws {
        let journal = try kind.newJournal()
        defer { Self.cleanUp(journal) }
        let (first, second) = try Self.with(journal) { store throws in
            #expect(!store.mayHold(id: "c1"), "a new id is certainly new")
            let first = Self.command("c1", seq: store.admit(id: "c1"), createdMs: 1_000)
            let second = Self.command("c2", seq: store.admit(id: "c2"), createdMs: 1_001)
            #expect(try #require(second.seq) > (try #require(first.seq)))
            #expect(store.mayHold(id: "c1"), "admitted before its commit")
            #expect(try store.command(id: "c1") == nil, "nothing is read before the commit")
            try store.commit([.insert(first), .insert(second)])
            #expect(try store.command(id: "c1") == first)
            #expect(try store.outstanding() == [first, second], "oldest first")
            return (first, second)
        }
        try Self.with(journal) { store throws in
            #expect(store.mayHold(id: "c1") && store.mayHold(id: "c2"), "ids survive a reopen")
            #expect(!store.mayHold(id: "c3"))
            #expect(try store.command(id: "c2") == second)
            #expect(store.admit(id: "c3") > (try #require(second.seq)), "a reopened log goes on rising")
            #expect(try store.outstanding() == [first, second])
        }
    }

    @Test(
        "outcomes are appended, the latest being the command's: outstanding, unknown, late and counts follow it",
        arguments: Store.allCases)
    func outcomesAppended(_ kind: Store) throws {
        try Self.onNewJournal(kind) { store throws in
            let sale = Self.command("s1", seq: store.admit(id: "s1"))
            try store.commit([.insert(sale), Self.final(sale, .unknown)])
            #expect(try store.outstanding().isEmpty)
            #expect(try store.unknownCount() == 1)
            #expect(try store.unknownCommands(lane: "lane-1", action: "sale").map(\.id) == ["s1"])
            #expect(try store.unknownCommands(lane: "lane-2", action: "sale").isEmpty)
            #expect(try store.command(id: "s1")?.outcome == .unknown)
            for success in [false, true] {
                #expect(
                    try store.lateCommand(
                        lane: "lane-1", action: "sale", clientTransactionId: "ctid-s1", success: success)?
                        .id == "s1", "an unknown is completed by any late answer")
            }

            try store.commit([Self.final(sale, .failure, atMs: 3_000, late: true)])
            #expect(try store.command(id: "s1")?.outcome == .failure, "the latest outcome is the command's")
            #expect(try store.unknownCount() == 0)
            #expect(
                try store.lateCommand(lane: "lane-1", action: "sale", clientTransactionId: "ctid-s1", success: false)
                    == nil)
            #expect(
                try store.lateCommand(lane: "lane-1", action: "sale", clientTransactionId: "ctid-s1", success: true)?.id
                    == "s1", "a late success still completes a failure")

            try store.commit([Self.final(sale, .success, atMs: 4_000, late: true)])
            #expect(
                try store.lateCommand(lane: "lane-1", action: "sale", clientTransactionId: "ctid-s1", success: true)
                    == nil)
            #expect(try store.outcomeCounts(sinceMs: 0) == ["sale": ["success": 1]])
            #expect(try store.outcomeCounts(sinceMs: 5_000).isEmpty, "counted by when the command was created")
        }
    }

    @Test("a successful pre_auth is found by its orderCode on its lane only", arguments: Store.allCases)
    func preAuthByOrderCode(_ kind: Store) throws {
        try Self.onNewJournal(kind) { store throws in
            let held = Self.command("p1", seq: store.admit(id: "p1"), action: .preAuth)
            let declined = Self.command("p2", seq: store.admit(id: "p2"), action: .preAuth)
            try store.commit([
                .insert(held), Self.final(held, .success, orderCode: "7000"), .insert(declined),
                Self.final(declined, .failure, orderCode: "7001"),
            ])
            #expect(try store.preAuth(lane: "lane-1", orderCode: "7000") == "p1")
            #expect(try store.preAuth(lane: "lane-2", orderCode: "7000") == nil)
            #expect(try store.preAuth(lane: "lane-1", orderCode: "7001") == nil, "only a successful one")
        }
    }

    @Test(
        "open batches and numbered callbacks are kept and read back, newest callback first", arguments: Store.allCases)
    func batchesAndCallbacks(_ kind: Store) throws {
        try Self.onNewJournal(kind) { store throws in
            let morning = OpenBatch(name: "morning", id: nil, openedAtMs: 5)
            try store.commit([.batch(lane: "lane-1", morning), .batch(lane: "lane-2", OpenBatch(openedAtMs: 6))])
            try store.commit([.batch(lane: "lane-2", nil)])
            #expect(try store.openBatches() == ["lane-1": morning])

            let first = RelayCallbackKey(seq: 1, urlHash: 11)
            let third = RelayCallbackKey(seq: 3, urlHash: 33)
            try store.commit([
                Self.orphan("lane-1", atMs: 10, relay: first),
                Self.orphan("lane-2", atMs: 11),
                Self.orphan("lane-2", atMs: 12, relay: third),
            ])
            let recent = try store.recentRelayCallbacks(limit: 10)
            #expect(recent.map(\.lane) == ["lane-2", "lane-1"])
            #expect(recent.map(\.key) == [third, first])
            #expect(try store.recentRelayCallbacks(limit: 2).map(\.key) == [third], "among the newest two only")
        }
    }

    @Test("the identity stays for the journal's life; each start counts a new epoch", arguments: Store.allCases)
    func identityAndEpochs(_ kind: Store) throws {
        let journal = try kind.newJournal()
        defer { Self.cleanUp(journal) }
        let (identity, epoch) = try Self.with(journal) { store throws in
            let identity = try store.journalIdentity()
            #expect(try store.journalIdentity() == identity)
            return (identity, try store.nextEpoch())
        }
        try Self.with(journal) { store throws in
            #expect(try store.journalIdentity() == identity)
            #expect(try store.nextEpoch() == epoch + 1)
        }
        #expect(try Self.with(try kind.newJournal()) { try $0.journalIdentity() } != identity, "each journal its own")
    }

    @Test("the writer's connection commits whole turns in order, read by the store", arguments: Store.allCases)
    func committerTurns(_ kind: Store) throws {
        try Self.onNewJournal(kind) { store throws in
            let committer = try store.makeCommitter()
            defer { committer.close() }
            let sale = Self.command("w1", seq: store.admit(id: "w1"))
            try committer.commit([[.insert(sale)], [Self.final(sale, .success)]])
            #expect(try store.command(id: "w1")?.outcome == .success)
            let next = Self.command("w2", seq: store.admit(id: "w2"))
            #expect(try committer.commitUnlessBusy([[.insert(next)]]), "nobody else holds the write lock")
            #expect(try store.outstanding().map(\.id) == ["w2"])
        }
    }

    @Test(
        "prune removes finished commands older than the cutoff, never an unknown or outstanding one",
        arguments: Store.allCases)
    func prune(_ kind: Store) throws {
        try Self.onNewJournal(kind) { store throws in
            let old = Self.command("old", seq: store.admit(id: "old"), createdMs: 10)
            let unknown = Self.command("unknown", seq: store.admit(id: "unknown"), createdMs: 11)
            let open = Self.command("open", seq: store.admit(id: "open"), createdMs: 12)
            let recent = Self.command("recent", seq: store.admit(id: "recent"), createdMs: 5_000)
            try store.commit([
                .insert(old), Self.final(old, .success, atMs: 20), .insert(unknown),
                Self.final(unknown, .unknown, atMs: 21), .insert(open), .insert(recent),
                Self.final(recent, .success, atMs: 5_001),
                Self.orphan("lane-1", atMs: 30),
                Self.orphan("lane-1", atMs: 6_000),
            ])
            #expect(try store.pruneCommands(cutoffMs: 1_000, limit: 100) == 1)
            #expect(try store.command(id: "old") == nil)
            #expect(try ["unknown", "open", "recent"].allSatisfy { try store.command(id: $0) != nil })
            let pruned = try store.pruneCallbacks(cutoffMs: 1_000, after: 0, limit: 100)
            #expect(pruned.removed == 1, "the orphan received before the cutoff")
        }
    }
}
