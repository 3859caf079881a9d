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
            try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
            do {
                try body(db)
                try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
            } catch {
                // GRDB's `rollback` does nothing when SQLite rolled back already; its own error would hide
                // the cause, so it is dropped, as `write` drops it.
                try? db.rollback()
                throw error
            }
        }
    }
}
