/// The kind of socket a simulated relay binds for its lane (PROTOCOL.md §5).
public enum RelaySocketKind: String, Sendable, CaseIterable {
    /// A ROUTER: the relay learns the bridge's routing id from the frames it receives.
    case router
    /// A DEALER: one bridge at a time, no routing ids.
    case dealer
}
