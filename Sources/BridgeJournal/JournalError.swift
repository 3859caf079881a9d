import BridgeCore

/// The journal could not be opened or written: the bridge does not run without it.
public struct JournalError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem it is: decides whether restarting can help.
    public enum Code: Sendable, Equatable {
        /// The file cannot be read, written or trusted as it is (damaged, unreadable, a failed write).
        case unusable
        /// Another bridge holds the journal.
        case inUse
        /// A newer vivabridge wrote the journal (it has migrations this build does not know): this build
        /// refuses it, untouched.
        case fromNewerVersion
        /// The journal this state folder had is gone or was replaced (an empty file, a missing file beside
        /// its companions, another journal's identity): beginning a new one there could charge a repeated
        /// id twice, so the bridge refuses until the operator restores it or starts anew on purpose.
        case notThisFoldersJournal
        /// A PostgreSQL journal's commit was refused because this bridge no longer holds the journal's lease
        /// (another bridge took over, or the lease ran out): nothing of it was written; the bridge goes back
        /// to standby.
        case leaseLost
        /// The journal is behind the position the bridge recorded beside it (a backup restored, a file copied
        /// over, another journal put in its place): the commands in between are missing, so the bridge
        /// refuses it until the operator accepts the gap (`vivabridge journal accept-gap`).
        case behindItsPosition
    }

    /// The journal's file.
    public let path: String
    /// What went wrong, in words a person can act on.
    public let message: String
    /// What kind of problem it is.
    public let code: Code

    package init(path: String, _ message: String, code: Code = .unusable) {
        self.path = path
        self.message = message
        self.code = code
    }

    /// Another bridge holds the journal (the process should exit 2: a configuration problem).
    public var isInUse: Bool { code == .inUse }
    /// A newer vivabridge wrote the journal (the process should exit 2: run the newer version or restore
    /// a backup).
    public var isFromNewerVersion: Bool { code == .fromNewerVersion }

    /// The operator must change the set-up or the files, not wait: exit 2 rather than 1.
    public var isSetUpProblem: Bool { code != .unusable && code != .leaseLost }

    public var description: String { "journal \(path): \(message)" }
}
