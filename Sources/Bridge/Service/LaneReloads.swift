import Foundation

/// The lanes of the last reload, waiting for the bridge's loop: the caller leaves them here and sends
/// `lanes` on the control channel; the loop, the one owner of lane state, takes them. Only the latest
/// list counts: two reloads before the loop turns apply the second.
final class LaneReloads: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: [LaneConfiguration]?

    /// Leaves `lanes` for the loop, replacing any list it has not taken yet.
    func put(_ lanes: [LaneConfiguration]) {
        lock.lock()
        waiting = lanes
        lock.unlock()
    }

    /// The list left since the last call, if any.
    func take() -> [LaneConfiguration]? {
        lock.lock()
        defer { lock.unlock() }
        defer { waiting = nil }
        return waiting
    }
}
