import BridgeCore
import BridgeJournal
import Foundation
import Synchronization

/// The lanes of the last reload, waiting for the bridge's loop: the caller leaves them here and sends
/// `lanes` on the control channel; the loop, the one owner of lane state, takes them. Only the latest
/// list counts: two reloads before the loop turns apply the second.
final class LaneReloads: Sendable {
    private let waiting = Mutex<[LaneConfiguration]?>(nil)

    /// Leaves `lanes` for the loop, replacing any list it has not taken yet.
    func put(_ lanes: [LaneConfiguration]) { waiting.withLock { $0 = lanes } }

    /// The list left since the last call, if any.
    func take() -> [LaneConfiguration]? {
        waiting.withLock {
            let taken = $0
            $0 = nil
            return taken
        }
    }
}
