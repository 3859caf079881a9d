/// The journal could not be opened or written: the bridge does not run without it.
public struct JournalError: Error, Sendable, CustomStringConvertible {
    /// The journal's file.
    public let path: String
    /// What went wrong, in words a person can act on.
    public let message: String
    /// Another bridge holds the journal (the process should exit 2: a configuration problem).
    public let isInUse: Bool

    init(path: String, _ message: String, inUse: Bool = false) {
        self.path = path
        self.message = message
        isInUse = inUse
    }

    public var description: String { "journal \(path): \(message)" }
}
