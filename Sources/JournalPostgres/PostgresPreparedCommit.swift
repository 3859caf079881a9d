import BridgeJournal
import PostgresNIO

/// ``PostgresJournalSQL/commit`` as a prepared statement: parsed once a connection (``PostgresLink/run(prepared:)``).
struct PostgresPreparedCommit: PostgresPreparedStatement {
    typealias Row = ()
    static let sql = PostgresJournalSQL.commit
    /// ``PostgresCommitRows/binds``.
    let binds: PostgresBindings

    func makeBindings() -> PostgresBindings { binds }
    func decodeRow(_ row: PostgresRow) {}
}

/// ``PostgresJournalSQL/fencedCommit`` as a prepared statement: the commit's five values, then the lease's epoch.
struct PostgresPreparedFencedCommit: PostgresPreparedStatement {
    typealias Row = ()
    static let sql = PostgresJournalSQL.fencedCommit
    let binds: PostgresBindings

    func makeBindings() -> PostgresBindings { binds }
    func decodeRow(_ row: PostgresRow) {}
}
