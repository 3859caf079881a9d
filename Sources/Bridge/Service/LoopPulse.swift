import BridgeCore
import BridgeJournal
import Foundation
import Synchronization

/// When the bridge's loop last turned, readable from any thread without a lock: what a watchdog asks
/// before it tells systemd the bridge is alive. The loop turns at least once a tick (a second) even idle.
final class LoopPulse: Sendable {
    private let lastTurnNs = Atomic<UInt64>(0)

    /// Records a turn; called by the loop once per turn.
    func beat() { lastTurnNs.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed) }

    /// Records that the loop has ended; called once, as it returns.
    func end() { lastTurnNs.store(0, ordering: .relaxed) }

    /// Whether the loop turned within the last `milliseconds` (false before its first turn and after
    /// it ended).
    func turned(withinMilliseconds milliseconds: Int) -> Bool {
        let last = lastTurnNs.load(ordering: .relaxed)
        guard last > 0 else { return false }
        let now = DispatchTime.now().uptimeNanoseconds
        return now < last || now - last <= UInt64(milliseconds) * 1_000_000
    }
}
