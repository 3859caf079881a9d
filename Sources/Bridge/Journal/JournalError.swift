/// The journal could not be opened or written: the bridge does not run without it.
public struct JournalError: Error, Sendable, CustomStringConvertible {
    /// The journal's file.
    public let path: String
    /// What went wrong, in words a person can act on.
    public let message: String
    /// Another bridge holds the journal (the process should exit 2: a configuration problem).
    public let isInUse: Bool
    /// A newer vivabridge wrote the journal (it has migrations this build does not know): this build
    /// refuses it, untouched (the process should exit 2: run the newer version or restore a backup).
    public let isFromNewerVersion: Bool

    init(path: String, _ message: String, inUse: Bool = false, newer: Bool = false) {
        self.path = path
        self.message = message
        isInUse = inUse
        isFromNewerVersion = newer
    }

    /// The operator must change the set-up, not the file: exit 2 rather than 1.
    public var isSetUpProblem: Bool { isInUse || isFromNewerVersion }

    public var description: String { "journal \(path): \(message)" }
}
