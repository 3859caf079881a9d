import GRDB

/// Holds a journal's write lock from another connection until ``release()``: the bridge's commits wait for
/// it (SQLite's busy timeout) and, held past that timeout, fail as they would on a full disk. In WAL mode
/// readers are not blocked.
final class JournalWriteLock {
    private let queue: DatabaseQueue

    init(journal: String) throws {
        var unsafe = Configuration()
        unsafe.allowsUnsafeTransactions = true
        queue = try DatabaseQueue(path: journal, configuration: unsafe)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
    }

    /// Lets go of the lock and closes the connection.
    func release() throws {
        try queue.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        try queue.close()
    }
}
