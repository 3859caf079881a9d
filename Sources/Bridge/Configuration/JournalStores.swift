import BridgeCore
import BridgeJournal
import Foundation
import JournalPostgres
import JournalSQLite

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

    /// How a bridge sharing `journal` with a standby reaches its lease: the address is checked now, and each
    /// call of the result connects (and creates or migrates the schema, the lease's row with it). Only a
    /// PostgreSQL journal can be shared.
    ///
    /// - Throws: ``ConfigurationError`` for a URL that is not well formed, ``JournalError`` for a journal that
    ///   cannot be shared (a file).
    package static func leaseOpener(
        _ journal: String, password: JournalPassword? = nil, instance: String, leaseMs: Int,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> @Sendable () throws -> any JournalLeasing {
        guard PostgresAddress.isURL(journal) else {
            throw JournalError(path: journal, "is a file: only a journal on PostgreSQL is shared by a standby")
        }
        let address = try PostgresAddress(url: journal, password: password, environment: environment)
        return { try JournalLease(address: address, instance: instance, leaseMs: leaseMs) }
    }

    /// `journal` as log lines and the banner show it: a path as it is, a URL without any password.
    public static func location(of journal: String) -> String {
        guard PostgresAddress.isURL(journal) else { return journal }
        return (try? PostgresAddress(url: journal).location) ?? "postgresql://(a URL that is not well formed)"
    }
}
