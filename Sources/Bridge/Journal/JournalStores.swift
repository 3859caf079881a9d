import Foundation

/// Which store holds the journal, by the `journal:` value: a PostgreSQL URL (`postgresql://…`,
/// ``PostgresJournal``), else a file's path (SQLite, ``Journal``).
public enum JournalStores {
    /// Opens the journal `journal` names: creates or migrates it, and refuses one of a newer vivabridge.
    ///
    /// - Parameter environment: where a PostgreSQL journal's password is read from
    ///   (``PostgresAddress/passwordVariables``).
    /// - Throws: ``JournalError``; ``ConfigurationError`` for a URL that is not well formed.
    /// - Parameter leaseEpoch: the PostgreSQL journal's lease this bridge holds: every commit is checked
    ///   against it (``JournalError/Code/leaseLost``). Nil for SQLite and for the journal commands.
    static func open(
        _ journal: String, sync: JournalSync, leaseEpoch: Int? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> any JournalStore {
        guard PostgresAddress.isURL(journal) else { return try Journal(path: journal, sync: sync) }
        return try PostgresJournal(
            address: try PostgresAddress(url: journal, environment: environment), leaseEpoch: leaseEpoch)
    }

    /// `journal` as log lines and the banner show it: a path as it is, a URL without any password.
    public static func location(of journal: String) -> String {
        guard PostgresAddress.isURL(journal) else { return journal }
        return (try? PostgresAddress(url: journal).location) ?? "postgresql://(a URL that is not well formed)"
    }
}
