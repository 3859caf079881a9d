import Foundation
import Synchronization

/// The bridge's source of time: deadlines, grace periods and batch expiry all read it.
public protocol BridgeClock: Sendable {
    /// Milliseconds since 1970.
    func nowMs() -> Int64
}

/// The wall clock.
public struct SystemBridgeClock: BridgeClock {
    /// Creates the wall clock.
    public init() {}
    public func nowMs() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}

/// A clock that moves only when told, for tests of deadlines and batch expiry.
public final class ManualBridgeClock: BridgeClock, Sendable {
    private let now: Atomic<Int64>

    /// Starts at `startMs` milliseconds since 1970 (default: the wall clock's now).
    public init(startMs: Int64 = SystemBridgeClock().nowMs()) { now = Atomic(startMs) }

    public func nowMs() -> Int64 { now.load(ordering: .acquiring) }

    /// Moves the clock forward by `milliseconds`.
    public func advance(byMs milliseconds: Int64) { now.add(milliseconds, ordering: .acquiringAndReleasing) }
}
