/// The lease of a journal shared by two bridges: the one record that says which of them is active, judged
/// by the store's own clock (docs/OPERATIONS.md, "Two bridges on one PostgreSQL journal"). A store that can
/// be shared offers one (``JournalStore``'s own commits are then fenced by the epoch it hands out); the
/// service polls it as a standby, keeps it while active, and releases it at a shutdown, through this
/// protocol alone. Blocking calls, from one thread at a time.
package protocol JournalLeasing: AnyObject, Sendable {
    /// The name this bridge holds the lease under.
    var instance: String { get }
    /// How long the lease lasts without a renewal, in milliseconds.
    var leaseMs: Int { get }
    /// Tries once to take the lease: its new epoch, or nil when another bridge holds it.
    func tryAcquire() throws -> Int?
    /// Extends the lease of `epoch` by ``leaseMs`` from now: false when another bridge took it.
    func renew(epoch: Int) throws -> Bool
    /// Frees the lease of `epoch` at once, so that a standby takes over without waiting for its expiry.
    func release(epoch: Int) throws
    /// Who holds the lease now; nil when no bridge ever took it.
    func holder() throws -> LeaseHolder?
    /// Closes the lease's connection; a lease is not used after it.
    func close()
}

/// Who holds a journal's lease, as the store sees it.
package struct LeaseHolder: Sendable, Equatable {
    /// The holder's `instance` name.
    package var instance: String
    /// The epoch it took the lease at: each taking gets a new one.
    package var epoch: Int
    /// False once its expiry passed (or it was released): the lease is free.
    var running: Bool

    package init(instance: String, epoch: Int, running: Bool) {
        self.instance = instance
        self.epoch = epoch
        self.running = running
    }
}
