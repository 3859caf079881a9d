import BridgeCore
import BridgeJournal
import GRDB

extension DatabaseQueue {
    /// Runs `body` in one `BEGIN IMMEDIATE` … `COMMIT` transaction, as GRDB's `write` does, with the two
    /// statements taken from the connection's statement cache: `write` parses both anew at every commit, a
    /// cost the journal's commits pay once a sale.
    ///
    /// When `body` or the `COMMIT` throws (a failed insert, `SQLITE_FULL`, `SQLITE_BUSY`), what the
    /// transaction wrote is rolled back, unless SQLite already did (it may, on those errors), and the first
    /// error is thrown: the connection is ready for the next transaction. A `BEGIN` that fails (the write
    /// lock still held by another connection after the busy wait) opened nothing and throws as it is.
    func inCachedTransaction(_ body: (Database) throws -> Void) throws {
        try writeWithoutTransaction { db in
            try Self.transaction(
                db, begin: db.cachedStatement(sql: Self.begin), commit: db.cachedStatement(sql: Self.commit), body)
        }
    }

    /// ``inCachedTransaction(_:)`` with the statements a ``PreparedCommit`` keeps for this connection: no look-up
    /// in the statement cache at all (each hashes the statement's whole text).
    func inPreparedTransaction(_ prepared: PreparedCommit, _ body: (Database, Journal.LogAppends) throws -> Void)
        throws
    {
        try writeWithoutTransaction { db in
            let statements = try prepared.statements(db)
            do {
                try Self.transaction(db, begin: statements.begin, commit: statements.commit) { db in
                    try body(db, statements.appends)
                }
            } catch {
                // A statement that failed cannot be used again (SQLite's `sqlite3_reset` does not restore it;
                // GRDB drops it from its own cache): the next commit prepares them anew.
                prepared.drop()
                throw error
            }
        }
    }

    static let begin = "BEGIN IMMEDIATE TRANSACTION"
    static let commit = "COMMIT TRANSACTION"

    private static func transaction(
        _ db: Database, begin: Statement, commit: Statement, _ body: (Database) throws -> Void
    ) throws {
        try begin.execute()
        do {
            try body(db)
            try commit.execute()
        } catch {
            // GRDB's `rollback` does nothing when SQLite rolled back already; its own error would hide
            // the cause, so it is dropped, as `write` drops it.
            try? db.rollback()
            throw error
        }
    }
}

/// The statements of a journal commit on one connection (begin, the log's three appends, commit), prepared
/// at its first commit and kept for the connection's life: taken from GRDB's statement cache instead, each
/// commit hashed and compared every statement's whole text (about 12k instructions a sale, docs/PERFORMANCE.md).
///
/// Unchecked `Sendable`: its one variable is read and written only inside its connection's
/// `writeWithoutTransaction`, which the `DatabaseQueue` runs one at a time; ``drop()`` runs before the
/// connection closes, when no commit can run.
final class PreparedCommit: @unchecked Sendable {
    struct Statements {
        let begin: Statement
        let appends: Journal.LogAppends
        let commit: Statement
    }

    private var prepared: Statements?

    /// The statements, prepared on `db` the first time.
    func statements(_ db: Database) throws -> Statements {
        if let prepared { return prepared }
        let made = Statements(
            begin: try db.makeStatement(sql: DatabaseQueue.begin), appends: try Journal.LogAppends(db),
            commit: try db.makeStatement(sql: DatabaseQueue.commit))
        prepared = made
        return made
    }

    /// Lets the statements go, so that the connection can close.
    func drop() { prepared = nil }
}
