import BridgeCore
import BridgeJournal
import Foundation
import PostgresNIO
import Synchronization

/// The journal in a PostgreSQL database (`journal: postgresql://USER@HOST:PORT/DBNAME`): SQLite's log schema
/// and look-ups, behind the same seam (``JournalStore``).
///
/// The store's connection serves the loop's reads and its occasional writes (a retried commit, the epoch,
/// retention), each a blocking call from the loop's thread; the journal writer commits on a connection of its
/// own (``PostgresCommitter``), every turn it takes in one statement. Ids are found from memory
/// (``CommandIndex``, rebuilt at open by one pass along `command_log`), as on SQLite.
package final class PostgresJournal: JournalStore {
    let address: PostgresAddress
    package var location: String { address.location }
    private let link: PostgresLink
    /// The epoch of the journal's lease this bridge holds: every commit is refused unless the lease is still
    /// this one's (``PostgresJournalSQL/fencedCommit``). Nil: commits are not fenced (the journal commands).
    let leaseEpoch: Int?
    /// Where each id sits in the log, and the next sequence.
    private var places = LogPlaces()
    var index: CommandIndex { places.index }

    /// Connects, refuses a journal of a newer vivabridge, creates or migrates the schema, and reads every
    /// command's id into memory; `leaseEpoch` fences every commit by the lease held (nil: none).
    ///
    /// - Throws: ``JournalError`` naming the database (never its password) and what went wrong.
    package init(address: PostgresAddress, leaseEpoch: Int? = nil) throws {
        self.address = address
        self.leaseEpoch = leaseEpoch
        link = try PostgresLink.journal(address, role: "journal")
        do {
            try PostgresMigrations.migrate(link)
            places = try Self.readPlaces(link)
        } catch let error as JournalError {
            link.close()
            throw error
        } catch {
            link.close()
            throw JournalError(path: address.location, "cannot be opened: \(error)")
        }
    }

    /// Every command's id and sequence, at open: one pass along the log's key, rows handled as they arrive.
    private static func readPlaces(_ link: PostgresLink) throws -> LogPlaces {
        let count = try link.query("SELECT COUNT(*) FROM command_log").first?.decode(Int64.self) ?? 0
        let state = Mutex((index: CommandIndex(capacity: max(1 << 16, Int(count + count / 4))), last: Int64(0)))
        try link.forEachRow("SELECT seq, id FROM command_log ORDER BY seq") { row in
            let (seq, id) = try row.decode((Int64, String).self)
            state.withLock { state in
                state.index.insert(id, at: seq)
                state.last = seq
            }
        }
        return state.withLock { LogPlaces(index: $0.index, next: $0.last + 1) }
    }

    /// The lease's epoch when one is held (taking over is the start that counts), else one more start counted.
    package func nextEpoch() throws -> Int {
        if let leaseEpoch { return leaseEpoch }
        return Int(try link.query(PostgresJournalSQL.nextEpoch).first?.decode(Int64.self) ?? 0)
    }

    /// The `journal_id` in `meta`, written by the first bridge that asks (the standby then reads the same).
    package func journalIdentity() throws -> UUID {
        var binds = PostgresBindings()
        binds.append(UUID().uuidString.lowercased())
        _ = try link.query(
            "INSERT INTO meta(key, value) VALUES('\(JournalIdentity.metaKey)', $1) ON CONFLICT (key) DO NOTHING", binds)
        let text = try link.query("SELECT value FROM meta WHERE key = '\(JournalIdentity.metaKey)'").first?
            .decode(String.self)
        guard let text, let id = UUID(uuidString: text) else {
            throw JournalError(path: location, "has no identity in meta (journal_id); it cannot name cloud sessions")
        }
        return id
    }

    /// A connection of the journal writer's own.
    package func makeCommitter() throws -> any JournalCommitter {
        PostgresCommitter(link: try PostgresLink(address: address, role: "writer"), leaseEpoch: leaseEpoch)
    }

    package func close() { link.close() }

    deinit { close() }

    // MARK: Writes

    package func admit(id: String) -> Int64 { places.admit(id: id) }

    package func commit(_ entries: [JournalEntry]) throws {
        guard !entries.isEmpty else { return }
        let placed = places.placing(entries)
        try Self.write([placed], on: link, leaseEpoch: leaseEpoch)
    }

    /// Writes every turn's entries in one statement: atomic, one round trip; under the lease of `leaseEpoch`
    /// when one is given.
    ///
    /// - Throws: ``JournalError`` (``JournalError/Code/leaseLost``) when the lease is no longer this bridge's,
    ///   nothing written; ``PostgresProblem`` for any other failure.
    static func write(_ turns: [[JournalEntry]], on link: PostgresLink, leaseEpoch: Int?) throws {
        let rows = PostgresCommitRows(turns)
        guard !rows.isEmpty else { return }
        guard let leaseEpoch else {
            try link.run(prepared: PostgresPreparedCommit(binds: rows.binds))
            return
        }
        var binds = rows.binds
        binds.append(Int64(leaseEpoch))
        _ = try fenced(on: link, leaseEpoch: leaseEpoch, nothing: "nothing of this commit was written") {
            try link.run(prepared: PostgresPreparedFencedCommit(binds: binds))
            return []
        }
    }

    /// Runs a statement fenced by the lease of `leaseEpoch` (``PostgresLeaseSQL/refuseWithoutLease``).
    ///
    /// - Throws: ``JournalError`` (``JournalError/Code/leaseLost``) when the lease is no longer this bridge's,
    ///   `nothing` (what was not done) said; ``PostgresProblem`` for any other failure.
    private static func fenced(
        _ sql: String, _ binds: PostgresBindings, on link: PostgresLink, leaseEpoch: Int, nothing: String
    ) throws -> [PostgresRow] {
        try fenced(on: link, leaseEpoch: leaseEpoch, nothing: nothing) { try link.query(sql, binds) }
    }

    /// Runs `statement`, fenced by the lease of `leaseEpoch`, as ``fenced(_:_:on:leaseEpoch:nothing:)``.
    private static func fenced(
        on link: PostgresLink, leaseEpoch: Int, nothing: String, _ statement: () throws -> [PostgresRow]
    ) throws -> [PostgresRow] {
        do {
            return try statement()
        } catch let problem as PostgresProblem {
            guard problem.sqlState == PostgresLeaseSQL.lostState else { throw problem }
            let holder = problem.detail.map { " held by \($0)" } ?? " another bridge's"
            throw JournalError(
                path: link.address.location,
                "this bridge no longer holds the journal's lease (epoch \(leaseEpoch); the lease is now\(holder)): \(nothing). "
                    + "Another bridge took over, or this one could not renew the lease "
                    + "in time; this bridge stops serving and waits as standby",
                code: .leaseLost)
        }
    }

    // MARK: Reads

    package func mayHold(id: String) -> Bool { index.mayContain(id) }

    package func command(id: String) throws -> StoredCommand? {
        // Read even when memory knows of none: a journal that cannot be read must throw rather than answer "none".
        let candidates = index.candidates(for: id)
        for seq in candidates.isEmpty ? [0] : candidates {
            if let found = try stored(PostgresJournalSQL.commandBySeq, seq).first, found.id == id { return found }
        }
        return nil
    }

    package func lateCommand(lane: String, action: String, clientTransactionId: String, success: Bool) throws
        -> StoredCommand?
    {
        try stored(
            success ? PostgresJournalSQL.lateForSuccess : PostgresJournalSQL.lateForOther, lane, clientTransactionId,
            action
        ).first
    }

    package func preAuth(lane: String, orderCode: String) throws -> String? {
        try link.query(PostgresJournalSQL.preAuthByOrderCode, Self.binds(lane, orderCode)).first?.decode(String.self)
    }

    package func unknownCommands(lane: String, action: String) throws -> [StoredCommand] {
        try stored(PostgresJournalSQL.unknownOfAction, lane, action)
    }

    package func outstanding() throws -> [StoredCommand] { try stored(PostgresJournalSQL.outstanding) }

    package func recentRelayCallbacks(limit: Int) throws -> [(lane: String, key: RelayCallbackKey)] {
        try link.query(PostgresJournalSQL.recentRelayCallbacks, Self.binds(Int64(limit))).compactMap { row in
            let (lane, seq, hash) = try row.decode((String, Int64?, Int64?).self)
            return RelayCallbackKey(seq: seq, urlHash: hash).map { (lane, $0) }
        }
    }

    package func openBatches() throws -> [String: OpenBatch] {
        var batches: [String: OpenBatch] = [:]
        for row in try link.query("SELECT lane, name, batch_id, opened_ms, automatic FROM batches") {
            let (lane, name, id, opened, automatic) = try row.decode((String, String?, String?, Int64, Int32).self)
            batches[lane] = OpenBatch(name: name, id: id, openedAtMs: opened, automatic: automatic != 0)
        }
        return batches
    }

    package func unknownCount() throws -> Int {
        Int(try link.query(PostgresJournalSQL.unknownCount).first?.decode(Int64.self) ?? 0)
    }

    package func outcomeCounts(sinceMs: Int64) throws -> TodayOutcomes.Counts {
        var counts: TodayOutcomes.Counts = [:]
        for row in try link.query(PostgresJournalSQL.outcomeCounts, Self.binds(sinceMs)) {
            let (action, outcome, count) = try row.decode((String, String, Int64).self)
            counts[action, default: [:]][outcome] = Int(count)
        }
        return counts
    }

    // MARK: Retention

    /// Fenced by the lease when one is held, as commits are: ``JournalError/Code/leaseLost``, nothing removed.
    package func pruneCommands(cutoffMs: Int64, limit: Int) throws -> Int {
        try Self.pruneCommands(on: link, cutoffMs: cutoffMs, limit: limit, leaseEpoch: leaseEpoch)
    }

    /// Fenced by the lease when one is held, as commits are: ``JournalError/Code/leaseLost``, nothing removed.
    package func pruneCallbacks(cutoffMs: Int64, after: Int64, limit: Int) throws -> (removed: Int, next: Int64?) {
        try Self.pruneCallbacks(on: link, cutoffMs: cutoffMs, after: after, limit: limit, leaseEpoch: leaseEpoch)
    }

    /// ``pruneCommands(cutoffMs:limit:)`` on `link` (the bridge's connection, or `journal prune`'s), fenced by
    /// the lease of `leaseEpoch` when one is given.
    package static func pruneCommands(on link: PostgresLink, cutoffMs: Int64, limit: Int, leaseEpoch: Int? = nil) throws
        -> Int
    {
        guard let leaseEpoch else {
            return try link.query(PostgresJournalSQL.pruneCommands, binds(cutoffMs, Int64(limit))).count
        }
        return try fenced(
            PostgresJournalSQL.fencedPruneCommands, binds(cutoffMs, Int64(limit), Int64(leaseEpoch)), on: link,
            leaseEpoch: leaseEpoch, nothing: "nothing was removed"
        ).count
    }

    /// ``pruneCallbacks(cutoffMs:after:limit:)`` on `link` (the bridge's connection, or `journal prune`'s),
    /// fenced by the lease of `leaseEpoch` when one is given.
    package static func pruneCallbacks(
        on link: PostgresLink, cutoffMs: Int64, after: Int64, limit: Int, leaseEpoch: Int? = nil
    ) throws -> (removed: Int, next: Int64?) {
        let rows =
            if let leaseEpoch {
                try fenced(
                    PostgresJournalSQL.fencedPruneCallbacks, binds(cutoffMs, after, Int64(limit), Int64(leaseEpoch)),
                    on: link, leaseEpoch: leaseEpoch, nothing: "nothing was removed")
            } else {
                try link.query(PostgresJournalSQL.pruneCallbacks, binds(cutoffMs, after, Int64(limit)))
            }
        guard let row = rows.first else { return (0, nil) }
        let (looked, older, last, removed) = try row.decode((Int64, Bool, Int64?, Int64).self)
        // Over when it reached the last callback, or when every one it looked at was received after the cutoff.
        let next: Int64? = looked < limit || !older ? nil : last
        return (Int(removed), next)
    }

    // MARK: Helpers

    /// The stored commands a statement over the `commands` view returns (its ``JournalSQL/storedColumns``).
    private func stored(_ sql: String, _ values: any PostgresDynamicTypeEncodable...) throws -> [StoredCommand] {
        var binds = PostgresBindings(capacity: values.count)
        for value in values { binds.append(value) }
        return try link.query(sql, binds).map { try Self.stored($0, sql: sql) }
    }

    /// A row of the `commands` view read by column name (``StoredCommand/Columns``, the names SQLite reads
    /// too), never by position.
    private static func stored(_ row: PostgresRow, sql: String) throws -> StoredCommand {
        let cells = row.makeRandomAccess()
        func cell<T: PostgresDecodable>(_ column: StoredCommand.Columns) throws -> T {
            guard cells.contains(column.rawValue) else { throw JournalSchemaError(column: column.rawValue, sql: sql) }
            return try cells[column.rawValue].decode(T.self)
        }
        return try StoredCommand(
            seq: cell(.seq), id: cell(.id), lane: cell(.lane), action: cell(.action), fingerprint: cell(.fingerprint),
            clientTransactionId: cell(.clientTransactionId), state: cell(.state), outcome: cell(.outcome),
            reply: cell(.reply), deadlineMs: cell(.deadlineMs), createdMs: cell(.createdMs), client: cell(.client))
    }

    private static func binds(_ values: any PostgresDynamicTypeEncodable...) -> PostgresBindings {
        var binds = PostgresBindings(capacity: values.count)
        for value in values { binds.append(value) }
        return binds
    }
}

/// PostgreSQL's ``JournalCommitter``: a connection of the journal writer's own; each call, every turn it is
/// given, is one statement, so one transaction (group commit, as on SQLite).
final class PostgresCommitter: JournalCommitter {
    private let link: PostgresLink
    private let leaseEpoch: Int?

    package init(link: PostgresLink, leaseEpoch: Int?) {
        self.link = link
        self.leaseEpoch = leaseEpoch
    }

    func commit(_ turns: [[JournalEntry]]) throws {
        try PostgresJournal.write(turns, on: link, leaseEpoch: leaseEpoch)
    }

    /// Commits: the log's appends take no lock another session holds (the lease's row is read `FOR SHARE`).
    func commitUnlessBusy(_ turns: [[JournalEntry]]) throws -> Bool {
        try commit(turns)
        return true
    }

    func close() { link.close() }
}
