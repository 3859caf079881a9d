/// How long one phase of a simulated transaction (card presentment, host) lasts.
public enum PhaseDuration: Sendable, Equatable {
    /// The phase ends by itself after this many milliseconds of real (monotonic) time; 0 ends it at once.
    case milliseconds(Int)
    /// The phase lasts until ``Simulator/release(lane:)`` is called for its lane.
    case manual

    /// This duration `count` times over (several screens in a row); manual stays manual.
    func times(_ count: Int) -> PhaseDuration {
        switch self {
        case .milliseconds(let milliseconds): .milliseconds(milliseconds * count)
        case .manual: .manual
        }
    }
}
