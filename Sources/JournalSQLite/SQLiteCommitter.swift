import BridgeCore
import BridgeJournal
import GRDB
import Synchronization

/// SQLite's ``JournalCommitter``: a connection of the writer's own, each call one transaction.
final class SQLiteCommitter: JournalCommitter {
    /// Its connection (tests set per-connection limits on it).
    let database: DatabaseQueue
    /// Whether the connection waits for a lock another holds (``Journal/retryWhileBusy``), or gives up at
    /// once (``commitUnlessBusy(_:)``).
    private let waits: BusyWaits
    /// The commit's statements, kept for this connection.
    private let prepared = PreparedCommit()

    private final class BusyWaits: Sendable {
        let on = Atomic(true)
    }

    /// Opens the writer's connection to the journal at `path`.
    package init(path: String, sync: JournalSync) throws {
        let waits = BusyWaits()
        self.waits = waits
        database = try Journal.open(path: path, sync: sync) { tries in
            waits.on.load(ordering: .relaxed) && Journal.retryWhileBusy(tries)
        }
    }

    func commit(_ turns: [[JournalEntry]]) throws {
        try database.inPreparedTransaction(prepared) { db, appends in
            for entries in turns { try Journal.write(entries, in: db, with: appends) }
        }
    }

    func commitUnlessBusy(_ turns: [[JournalEntry]]) throws -> Bool {
        waits.on.store(false, ordering: .relaxed)
        defer { waits.on.store(true, ordering: .relaxed) }
        do {
            try commit(turns)
            return true
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            return false
        }
    }

    func close() {
        prepared.drop()
        try? database.close()
    }
}
