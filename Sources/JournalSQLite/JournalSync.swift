/// How the journal reaches the disk (SQLite's `synchronous` in WAL mode).
public enum JournalSync: String, Sendable, Equatable, CaseIterable {
    /// Durable across a crash of the process; the last commits may be lost on power loss.
    case normal
    /// Durable across power loss; every commit waits for the disk.
    case full
}
