import Foundation

/// The wall clock of the simulated terminals: transaction dates and batch ages (48-hour expiry) follow it.
///
/// Phase durations and late answers are real time, measured on a monotonic clock, whatever this clock says.
public protocol SimulatorClock: Sendable {
    /// The current date.
    func now() -> Date
}

/// The system's wall clock.
public struct SystemSimulatorClock: SimulatorClock {
    /// Creates the system clock.
    public init() {}

    /// The current date, from the system.
    public func now() -> Date { Date() }
}
