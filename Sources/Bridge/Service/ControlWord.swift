import BridgeCore
import BridgeJournal

/// The words the ``Bridge`` sends its loop on the inproc control channel: their one home, for the sender
/// and the loop alike.
enum ControlWord: String {
    /// Start a graceful shutdown.
    case shutdown
    /// Stop at once.
    case stop
    /// Check the timers now (a manual clock moved).
    case wake
    /// Take the lanes a reload left in ``LaneReloads``.
    case reloadLanes = "reload-lanes"
    /// Publish a `lanes` snapshot on the event tap, in order with the events.
    case snapshot

    /// The word as one frame.
    var frame: String { rawValue }
}
