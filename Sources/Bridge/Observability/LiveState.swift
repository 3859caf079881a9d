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

    /// The configured lanes, in configuration order.
    public let laneIds: [String]
    private let phaseValue = Atomic<Int>(Phase.starting.rawValue)
    private let epochValue = Atomic<Int>(0)
    private let up: [AtomicCell]

    init(laneIds: [String]) {
        self.laneIds = laneIds
        up = laneIds.map { _ in AtomicCell() }
    }

    /// The bridge's phase now.
    public var phase: Phase { Phase(rawValue: phaseValue.load(ordering: .acquiring)) ?? .stopped }

    /// The epoch of this start (0 until the bridge bound every endpoint).
    public var epoch: Int { epochValue.load(ordering: .relaxed) }

    /// Each lane and whether its link is up, in configuration order.
    public var lanes: [(id: String, up: Bool)] {
        zip(laneIds, up).map { ($0, $1.value.load(ordering: .relaxed) == 1) }
    }

    func set(_ phase: Phase) { phaseValue.store(phase.rawValue, ordering: .releasing) }
    func set(epoch: Int) { epochValue.store(epoch, ordering: .relaxed) }
    func set(lane index: Int, up isUp: Bool) { up[index].value.store(isUp ? 1 : 0, ordering: .relaxed) }
}
