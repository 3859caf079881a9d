/// What the poller tells its owner about the sessions it drives.
public enum CloudSessionEvent: Sendable, Equatable {
    /// Viva took the POST: the command is at the terminal (a relay lane's `forwarded`).
    case posted(sessionId: String)
    /// The command is over, with its result (journal it before anything is replied or published).
    case finished(sessionId: String, CloudSessionResult)
    /// Whether the last call to Viva was answered (a cloud lane's link is up while it is).
    case reachable(Bool)
}
