/// The journal could not be opened or written: the bridge does not run without it.
public struct JournalError: Error, Sendable, CustomStringConvertible {
    /// The journal's file.
    public let path: String
    /// What went wrong, in words a person can act on.
    public let message: String

    init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "journal \(path): \(message)" }
}
