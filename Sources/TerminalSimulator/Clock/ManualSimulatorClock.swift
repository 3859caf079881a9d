import Foundation
import Synchronization

/// A clock that only moves when told to: for tests of dates and batch expiry. Thread-safe.
public final class ManualSimulatorClock: SimulatorClock, Sendable {
    /// The default start: 2026-11-21T10:14:19.8703452Z, a Saturday morning.
    public static let defaultStart = Date(timeIntervalSince1970: 1_795_256_059.870_345_2)

    private let current: Mutex<Date>

    /// Creates a clock showing `start`.
    public init(start: Date = ManualSimulatorClock.defaultStart) {
        current = Mutex(start)
    }

    /// The date the clock shows.
    public func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward (or back, with a negative value) by `seconds`.
    public func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }

    /// Sets the clock to `date`.
    public func set(_ date: Date) { current.withLock { $0 = date } }
}
