import Foundation

/// Real elapsed time for phase durations and late answers, immune to wall-clock changes.
enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point (system boot).
    static func nanoseconds() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }
}
