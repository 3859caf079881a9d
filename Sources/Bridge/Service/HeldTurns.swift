import BridgeCore
import BridgeJournal

/// Turns whose journal write failed: their entries and the effects that must wait for them. While it
/// holds anything, later turns that write the journal wait behind it, in order, so nothing is replied or
/// published before it is journaled.
struct HeldTurns {
    /// Whether a failed write is waiting to be retried (why it failed is the correlator's
    /// ``JournalHealth``).
    private(set) var isActive = false
    private(set) var entries: [JournalEntry] = []
    private(set) var effects: [Effect] = []

    /// Starts holding after a failed write.
    mutating func start(entries: [JournalEntry], effects: [Effect]) {
        isActive = true
        self.entries = entries
        self.effects = effects.filter { if case .journal = $0 { false } else { true } }
    }

    /// Holds a later turn behind the failed one.
    mutating func append(entries: [JournalEntry], effects: [Effect]) {
        self.entries += entries
        self.effects += effects.filter { if case .journal = $0 { false } else { true } }
    }

    /// Ends holding once the entries are journaled; returns the effects to carry out now.
    mutating func release() -> [Effect] {
        defer { self = HeldTurns() }
        return effects
    }
}
