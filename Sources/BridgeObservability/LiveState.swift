import BridgeCore
import Dispatch
import Foundation
import Synchronization

/// What the loop publishes about itself for readers on other threads (the HTTP listener): its phase, its
/// epoch and each lane's link, all atomics the loop stores and never waits on.
public final class LiveState: Sendable {
    /// Where the bridge is in its life.
    public enum Phase: Int, Sendable {
        /// Not yet bound, or the journal not yet open.
        case starting
        /// Bound, journal open, taking commands.
        case ready
        /// Shutting down: new commands are refused, those in flight may finish.
        case draining
        /// The loop has ended.
        case stopped

        /// The phase as `/readyz` names it.
        public var name: String {
            switch self {
            case .starting: "starting"
            case .ready: "ready"
            case .draining: "draining"
            case .stopped: "stopped"
            }
        }
    }

    /// Whether the bridge serves or waits for the journal's lease.
    public enum Role: Int, Sendable {
        /// It holds the journal (its own SQLite file, or a PostgreSQL journal's lease) and serves.
        case active
        /// It waits for a PostgreSQL journal's lease: nothing bound, no lane linked.
        case standby

        /// The role as `/readyz` and the logs name it.
        public var name: String {
            switch self {
            case .active: "active"
            case .standby: "standby"
            }
        }
    }

    /// This bridge's name (`instance:`, or the host's name and the pid).
    public let instance: String
    private let roleValue: Atomic<Int>
    /// Until when (monotonic nanoseconds) an active bridge on a PostgreSQL journal may count on its lease:
    /// past it, ``role`` reads standby even before the keeper's thread has noticed (a process paused, then
    /// resumed, never reports active beside the bridge that took over). `UInt64.max` without a lease.
    private let leaseValidUntilNs = Atomic<UInt64>(.max)
    private let phaseValue = Atomic<Int>(Phase.starting.rawValue)
    private let epochValue = Atomic<Int>(0)
    /// Each lane's link, in configuration order. Written only when a link goes up or down or a reload
    /// adds or removes a lane, never per command; read by `/readyz`.
    private let links: Mutex<[(id: String, up: Bool)]>
    /// Signalled after every change of ``links``, for ``awaitLanesUp(_:timeout:)``.
    private let linksChanged = NSCondition()

    package init(laneIds: [String], instance: String = "", role: Role = .active) {
        links = Mutex(laneIds.map { ($0, false) })
        self.instance = instance
        roleValue = Atomic(role.rawValue)
    }

    /// Whether the bridge serves or waits as standby.
    public var role: Role {
        let role = Role(rawValue: roleValue.load(ordering: .acquiring)) ?? .standby
        guard role == .active else { return role }
        let validUntil = leaseValidUntilNs.load(ordering: .acquiring)
        return DispatchTime.now().uptimeNanoseconds < validUntil ? .active : .standby
    }

    /// The bridge's phase now.
    public var phase: Phase { Phase(rawValue: phaseValue.load(ordering: .acquiring)) ?? .stopped }

    /// The epoch of this start (0 until the bridge bound every endpoint).
    public var epoch: Int { epochValue.load(ordering: .relaxed) }

    /// Each lane and whether its link is up, in configuration order.
    public var lanes: [(id: String, up: Bool)] { links.withLock { $0 } }

    package func set(_ phase: Phase) { phaseValue.store(phase.rawValue, ordering: .releasing) }
    package func set(role: Role) { roleValue.store(role.rawValue, ordering: .releasing) }
    /// The lease's deadline as its keeper last extended it (``role``); `UInt64.max` when there is no lease.
    package func set(leaseValidUntilNs deadline: UInt64) { leaseValidUntilNs.store(deadline, ordering: .releasing) }
    /// Every lane's link down (the loop closed them all).
    package func setAllLanesDown() {
        links.withLock { links in links = links.map { ($0.id, false) } }
        signalLinks()
    }
    package func set(epoch: Int) { epochValue.store(epoch, ordering: .relaxed) }
    /// Sets `lane`'s link; a lane not listed yet (a reload added it) is appended.
    package func set(lane: String, up isUp: Bool) {
        links.withLock { links in
            if let index = links.firstIndex(where: { $0.id == lane }) {
                links[index].up = isUp
            } else {
                links.append((lane, isUp))
            }
        }
        signalLinks()
    }

    /// Forgets a lane a reload removed.
    package func remove(lane: String) {
        links.withLock { $0.removeAll { $0.id == lane } }
        signalLinks()
    }

    private func signalLinks() {
        linksChanged.lock()
        linksChanged.broadcast()
        linksChanged.unlock()
    }

    /// Waits until each of `lanes` (every lane listed when nil) is up, its relay having answered the
    /// bridge's `hello`, as `/readyz` shows it; blocks the calling thread.
    ///
    /// - Returns: whether they all were up within `timeout`.
    public func awaitLanesUp(_ lanes: [String]? = nil, timeout: Duration) -> Bool {
        let deadline = Date().addingTimeInterval(Double(timeout / .milliseconds(1)) / 1000)
        linksChanged.lock()
        defer { linksChanged.unlock() }
        while !allUp(lanes) {
            guard linksChanged.wait(until: deadline) else { return allUp(lanes) }
        }
        return true
    }

    private func allUp(_ wanted: [String]?) -> Bool {
        let known = self.lanes
        guard let wanted else { return !known.isEmpty && known.allSatisfy(\.up) }
        return wanted.allSatisfy { id in known.contains { $0.id == id && $0.up } }
    }
}
