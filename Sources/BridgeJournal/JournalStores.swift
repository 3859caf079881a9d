import BridgeCore
import Foundation

/// Which store holds the journal, by the `journal:` value: a PostgreSQL URL (`postgresql://…`,
/// ``PostgresJournal``), else a file's path (SQLite, ``Journal``).
public enum JournalStores {
    /// Opens the journal `journal` names: creates or migrates it, and refuses one of a newer vivabridge.
    ///
    /// - Parameters:
    ///   - leaseEpoch: the PostgreSQL journal's lease this bridge holds: every commit is checked against it
    ///     (``JournalError/Code/leaseLost``). Nil for SQLite and for the journal commands.
    ///   - password: a PostgreSQL journal's password (`journalPasswordFile:`); nil: read from `environment`
    ///     (``PostgresAddress/passwordVariables``).
    /// - Throws: ``JournalError``; ``ConfigurationError`` for a URL that is not well formed.
    package static func open(
        _ journal: String, sync: JournalSync, leaseEpoch: Int? = nil, password: JournalPassword? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> any JournalStore {
        guard PostgresAddress.isURL(journal) else { return try Journal(path: journal, sync: sync) }
        return try PostgresJournal(
            address: try PostgresAddress(url: journal, password: password, environment: environment),
            leaseEpoch: leaseEpoch)
    }

    /// `journal` as log lines and the banner show it: a path as it is, a URL without any password.
    public static func location(of journal: String) -> String {
        guard PostgresAddress.isURL(journal) else { return journal }
        return (try? PostgresAddress(url: journal).location) ?? "postgresql://(a URL that is not well formed)"
    }
}
