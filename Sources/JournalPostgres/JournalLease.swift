import BridgeCore
import BridgeJournal
import PostgresNIO

/// The lease of a journal in PostgreSQL: the one row (`journal_lease`) that says which of the bridges sharing
/// the journal is active, on a connection of its own (`application_name` `vivabridge-lease`).
///
/// A row and not an advisory lock: a session lock stays held by a connection the server has not noticed dead
/// yet (until TCP keepalive gives up) and means nothing behind a pooler in transaction mode; the row's expiry,
/// judged by the database's clock, frees the lease however its holder went (docs/OPERATIONS.md, "Two bridges
/// on one PostgreSQL journal"). Blocking calls, from one thread at a time.
package final class JournalLease: JournalLeasing {
    let address: PostgresAddress
    /// The name this bridge holds the lease under.
    package let instance: String
    /// How long the lease lasts without a renewal.
    package let leaseMs: Int
    private let link: PostgresLink

    /// Connects, and creates or migrates the journal's schema (the lease's row with it).
    ///
    /// - Throws: ``JournalError`` (``JournalError/Code/fromNewerVersion`` for a journal of a newer vivabridge),
    ///   or ``PostgresProblem`` when the database cannot be reached.
    package init(address: PostgresAddress, instance: String, leaseMs: Int) throws {
        self.address = address
        self.instance = instance
        self.leaseMs = leaseMs
        link = try PostgresLink(address: address, role: "lease")
        do {
            try PostgresMigrations.migrate(link)
        } catch {
            link.close()
            throw error
        }
    }

    /// Tries once to take the lease: its new epoch, or nil when another bridge holds it.
    package func tryAcquire() throws -> Int? {
        var binds = PostgresBindings()
        binds.append(instance)
        binds.append(Int64(leaseMs))
        return try link.query(PostgresLeaseSQL.acquire, binds).first.map { Int(try $0.decode(Int64.self)) }
    }

    /// Extends the lease of `epoch` by ``leaseMs`` from now: false when another bridge took it.
    package func renew(epoch: Int) throws -> Bool {
        var binds = PostgresBindings()
        binds.append(Int64(epoch))
        binds.append(Int64(leaseMs))
        return try !link.query(PostgresLeaseSQL.renew, binds).isEmpty
    }

    /// Frees the lease of `epoch` at once, so that a standby takes over without waiting for its expiry.
    package func release(epoch: Int) throws {
        var binds = PostgresBindings()
        binds.append(Int64(epoch))
        try link.query(PostgresLeaseSQL.release, binds)
    }

    /// Who holds the lease now.
    package func holder() throws -> LeaseHolder? {
        try link.query(PostgresLeaseSQL.holder).first.map {
            let (instance, epoch, running) = try $0.decode((String, Int64, Bool).self)
            return LeaseHolder(instance: instance, epoch: Int(epoch), running: running)
        }
    }

    package func close() { link.close() }
}
