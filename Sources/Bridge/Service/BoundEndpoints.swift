import BridgeCore
import BridgeJournal

/// Where a running bridge listens, with real ports where the configuration asked for `*`.
public struct BoundEndpoints: Sendable, Equatable {
    /// The ROUTER endpoint for commands.
    public var command: String
    /// The XPUB endpoint for events.
    public var events: String
    /// The PULL endpoint for fire-and-forget commands, when configured.
    public var commandPull: String?
}
