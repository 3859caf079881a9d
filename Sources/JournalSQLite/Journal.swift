import BridgeCore
import BridgeJournal
import Foundation
import GRDB

/// The bridge's durable memory: every accepted command, every callback, every open batch (SQLite, WAL).
///
/// Writes are staged and committed together by ``commit(_:)``: the bridge commits before any URL
/// leaves and before any outcome is replied or published. The journal is used by the bridge's loop
/// thread only.
package final class Journal: JournalStore {
    let database: DatabaseQueue
    /// The file the journal lives in.
    let path: String
    package var location: String { path }
    /// The file's device and inode when it was opened: another file at `path` is not this journal.
    private let identity: (device: UInt64, inode: UInt64)?
    private var checkpointer: JournalCheckpointer?
    private var lock: JournalLock?
    private let sync: JournalSync
    /// Where each command id sits in the log: see ``mayHold(id:)`` and ``command(id:)``.
    /// Where each id sits in the log, and the next sequence.
    private var places = LogPlaces()
    var index: CommandIndex { places.index }

    /// Opens (or creates) the journal at `path`, in WAL mode.
    ///
    /// - Parameter beginningAnew: the operator set the old journal aside on purpose (`journal new`): begin
    ///   a new one even though its companion files show that a journal lived here.
    /// - Throws: ``JournalError`` naming the file and what went wrong; ``JournalError/Code/notThisFoldersJournal``
    ///   where a journal lived and is gone or replaced (``JournalSite``).
    package init(path: String, sync: JournalSync, beginningAnew: Bool = false) throws {
        self.path = path
        self.sync = sync
        do {
            try Self.createFolder(of: path)
            // Before the lock file is created: it is one of the signs that a journal lived here.
            let site = JournalSite.inspect(path)
            if !beginningAnew, let refusal = site.refusal {
                throw JournalError(path: path, refusal, code: .notThisFoldersJournal)
            }
            lock = try JournalLock(journal: path)
            try Self.createPrivately(path)
            database = try Self.open(path: path, sync: sync)
            identity = Self.identity(of: path)
            // The whole check runs beside the reading of the places; a journal to migrate is checked first.
            let integrity = JournalIntegrityCheck(path: path)
            if try !database.read({ db in try JournalMigrations.migrator.hasCompletedMigrations(db) }) {
                try integrity.refuseDamaged(path: path)
            }
            try migrate()
            try JournalIdentity.establish(database, site: site)
            try Self.checkPosition(database, path: path)
            places = try Self.readPlaces(database)
            try integrity.refuseDamaged(path: path)
            checkpointer = try JournalCheckpointer(path: path)
        } catch let error as JournalError {
            lock?.release()
            throw error
        } catch {
            lock?.release()
            throw JournalError(
                path: path,
                "cannot open it: \(error). If the file is damaged, restore it from a backup, or run "
                    + "`vivabridge journal new --journal \(path)` to set it aside and start a new journal")
        }
    }

    private static func createFolder(of path: String) throws(JournalError) {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty else { return }
        do {
            // Only the bridge's user reads the journal: 0700 for a folder it creates, 0600 for its files.
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw JournalError(
                path: path,
                "cannot create its folder \(folder) (\(error.localizedDescription)); check the path and permissions")
        }
    }

    /// Creates the journal file 0600 before SQLite opens it, so that its `-wal` and `-shm` files, which
    /// SQLite creates with the database's mode, are 0600 too.
    private static func createPrivately(_ path: String) throws(JournalError) {
        let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw JournalError(path: path, "cannot create it: \(String(cString: strerror(errno)))")
        }
        Foundation.close(descriptor)
    }

    /// A connection to the journal at `path` as the bridge sets its connections up (WAL, `sync`, no automatic
    /// checkpoint): the loop's, and the ``JournalWriter``'s own. `whileBusy` says how it waits for a lock
    /// another connection holds (``SQLiteCommitter`` can turn the wait off for the loop's own commits).
    static func open(
        path: String, sync: JournalSync, whileBusy: @escaping Database.BusyCallback = retryWhileBusy
    ) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .callback(whileBusy)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = \(sync == .full ? "FULL" : "NORMAL")")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            // When a checkpoint rewinds the WAL, a file past this size is cut back to it rather than kept.
            try db.execute(sql: "PRAGMA journal_size_limit = \(JournalCheckpointer.walSizeLimitBytes)")
        }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// How the bridge's connections wait for a lock another connection holds (the checkpointer's RESTART, which
    /// holds the writers back while it copies the last frames; a backup; a journal command): naps of 50 µs for
    /// the first 5 ms, then of 1 ms, 5 s in all, as `busy_timeout(5000)` would. SQLite's own handler sleeps
    /// 1, 2, 5, 10, 15, 20, 25 ... ms, so a commit held up for 1.5 ms waited 3 ms and one held up for 9 ms
    /// waited 18: a stall of every lane at once, in the p99.9 (issue 17).
    static let retryWhileBusy: Database.BusyCallback = { tries in
        guard let nap = busyNapMicroseconds(afterTries: tries) else { return false }
        usleep(nap)
        return true
    }

    /// The nap before try `tries + 1` of a busy connection, or nil once the 5 s are spent.
    static func busyNapMicroseconds(afterTries tries: Int) -> UInt32? {
        let quick = 100
        guard tries < quick + 4995 else { return nil }
        return tries < quick ? 50 : 1000
    }

    /// The device and inode of the file at `path`, if it exists.
    static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// A commit that does not wait for the disk (`normal`) costs the loop less than handing it over.
    package var commitsCheaplyOnTheLoop: Bool { sync == .normal }

    /// Why the file at ``path`` is no longer this journal (deleted, or replaced by another file), or nil
    /// while it still is. Cheap (one `stat`): the loop asks once a second.
    package func integrityProblem() -> String? {
        guard let identity else { return nil }
        guard let now = Self.identity(of: path) else {
            return "the journal file \(path) was deleted while the bridge ran"
        }
        guard now.device == identity.device, now.inode == identity.inode else {
            return "the journal file \(path) was replaced by another file while the bridge ran"
        }
        return nil
    }

    /// Stops the checkpointer after a last checkpoint and closes the connection. The loop calls it when it
    /// ends; the journal is not used after.
    package func close() {
        guard let lock else { return }
        checkpointer?.stop()
        checkpointer = nil
        try? database.close()
        lock.release()
        self.lock = nil
    }

    deinit { close() }

    /// The journal writer's own connection to the file (WAL: the loop's reads never wait for its commits).
    package func makeCommitter() throws -> any JournalCommitter {
        try SQLiteCommitter(path: path, sync: sync)
    }

    /// Refuses a journal from a newer vivabridge, then applies the migrations it has not had yet.
    private func migrate() throws {
        try database.read { db in try JournalMigrations.refuseNewer(db, path: path) }
        try JournalMigrations.migrator.migrate(database)
    }

    /// Counts one more start of the bridge and returns the new epoch.
    /// The `journal_id` in `meta`, which every open establishes (``JournalIdentity``).
    package func journalIdentity() throws -> UUID {
        let text = try database.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [JournalIdentity.metaKey])
        }
        guard let text, let id = UUID(uuidString: text) else {
            throw JournalError(path: path, "has no identity in meta (journal_id); it cannot name cloud sessions")
        }
        return id
    }

    package func nextEpoch() throws -> Int {
        // Past the epoch the position file recorded too: a journal restored from before a later start must not
        // give the relays an epoch they have seen, or lower (they ignore such a bridge's hello).
        let recorded = try JournalPositionFile.read(journal: path)?.epoch ?? 0
        let position = try database.write { db in
            let current = try Int.fetchOne(db, sql: "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'epoch'") ?? 0
            try db.execute(
                sql: "INSERT OR REPLACE INTO meta(key, value) VALUES('epoch', ?)",
                arguments: [String(max(current, recorded) + 1)])
            return try JournalPosition.read(db)
        }
        guard let position else { throw JournalError(path: path, "has no identity; it cannot be served") }
        try JournalPositionFile.write(position, journal: path, durably: true)
        return position.epoch
    }

    /// Refuses a journal that is behind the position recorded beside it (``JournalPosition``), and records
    /// the position of one that is not.
    private static func checkPosition(_ database: DatabaseQueue, path: String) throws {
        guard var current = try database.read({ db in try JournalPosition.read(db) }) else { return }
        if let recorded = try JournalPositionFile.read(journal: path) {
            if let refusal = current.refusal(against: recorded, path: path) {
                throw JournalError(path: path, refusal, code: .behindItsPosition)
            }
            current.epoch = max(current.epoch, recorded.epoch)
            guard current != recorded else { return }
        }
        try JournalPositionFile.write(current, journal: path, durably: true)
    }

    /// False when no command was ever journaled under `id`: it is certainly new, and needs no look-up.
    /// True when it may have been: ask ``command(id:)``.
    package func mayHold(id: String) -> Bool { index.mayContain(id) }

    package func admit(id: String) -> Int64 { places.admit(id: id) }

    /// Every command's id and sequence, at open: one pass along the log's rising key.
    private static func readPlaces(_ database: DatabaseQueue) throws -> LogPlaces {
        try database.read { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM command_log") ?? 0
            var index = CommandIndex(capacity: max(1 << 16, count + count / 4))
            typealias Columns = CommandLogRow.Columns
            let statement = try db.makeStatement(
                sql: "SELECT \(Columns.seq.name), \(Columns.id.name) FROM \(CommandLogRow.databaseTableName) "
                    + "ORDER BY \(Columns.seq.name)")
            let seqAt = try statement.position(of: Columns.seq)
            let idAt = try statement.position(of: Columns.id)
            var last: Int64 = 0
            let rows = try Row.fetchCursor(statement)
            while let row = try rows.next() {
                last = row[seqAt]
                index.insert(row[idAt], at: last)
            }
            return LogPlaces(index: index, next: last + 1)
        }
    }

    /// Writes every staged entry in one transaction, on the calling thread (the loop's ``JournalWriter``
    /// commits the turns of normal operation; this is for a retry after a failed write, and for tests).
    /// A command inserted without a sequence is given one; an outcome without one is given its command's.
    package func commit(_ entries: [JournalEntry]) throws {
        guard !entries.isEmpty else { return }
        let placed = places.placing(entries)
        try database.inCachedTransaction { db in try Self.write(placed, in: db, with: LogAppends(db)) }
    }

    /// Writes `entries`, in order, with `appends` of the transaction `db` is in.
    static func write(_ entries: [JournalEntry], in db: Database, with appends: LogAppends) throws {
        for entry in entries { try apply(entry, in: db, appends) }
    }

    /// The log's three appends, taken from GRDB's cache once a transaction, not once a row: a look-up hashes
    /// and compares the statement's whole text.
    package struct LogAppends {
        package let command: Statement
        let outcome: Statement
        let callback: Statement

        package init(_ db: Database) throws {
            command = try db.cachedStatement(sql: CommandLogRow.append)
            outcome = try db.cachedStatement(sql: OutcomeLogRow.append)
            callback = try db.cachedStatement(sql: CallbackRow.append)
        }
    }

    private static func apply(_ entry: JournalEntry, in db: Database, _ appends: LogAppends) throws {
        switch entry {
        case .insert(let command):
            let row = CommandLogRow(command)
            try appends.command.run { row.bind(into: &$0) }
        case .final(let command, let summary, let late, let at):
            // The bridge's own look-ups are never journaled: their outcome is not either.
            guard let row = OutcomeLogRow(command, summary: summary, late: late, atMs: at) else { return }
            try appends.outcome.run { row.bind(into: &$0) }
        case .callback(let lane, let at, let fields, let matched, let commandSeq, let disposition, let relay):
            let row = CallbackRow(
                lane: lane, receivedMs: at, fields: fields, matchedId: matched, commandSeq: commandSeq,
                disposition: disposition, relay: relay)
            try appends.callback.run { row.bind(into: &$0) }
        case .batch(let lane, let batch):
            if let batch {
                try BatchRow(lane: lane, batch: batch).insert(db, onConflict: .replace)
            } else {
                _ = try BatchRow.deleteOne(db, key: lane)
            }
        }
    }
}
