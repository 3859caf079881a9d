import Foundation

/// A clock that only moves when told to: for tests of dates and batch expiry. Thread-safe.
public final class ManualSimulatorClock: SimulatorClock, @unchecked Sendable {
    /// The default start: 2026-11-21T10:14:19.8703452Z, a Saturday morning.
    public static let defaultStart = Date(timeIntervalSince1970: 1_795_256_059.870_345_2)

    private let lock = NSLock()
    private var current: Date

    /// Creates a clock showing `start`.
    public init(start: Date = ManualSimulatorClock.defaultStart) {
        current = start
    }

    /// The date the clock shows.
    public func now() -> Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Moves the clock forward (or back, with a negative value) by `seconds`.
    public func advance(by seconds: TimeInterval) {
        lock.lock()
        current += seconds
        lock.unlock()
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) {
        lock.lock()
        current = date
        lock.unlock()
    }
}
