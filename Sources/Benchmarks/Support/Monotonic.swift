#if canImport(Glibc)
    import Glibc
#endif

/// Monotonic time in nanoseconds, for every interval the benchmarks measure.
enum Monotonic {
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    static func seconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1e9 }

    /// Sleeps until ``now()`` reaches `deadline` (at once if it has).
    static func sleep(until deadline: UInt64) {
        let now = now()
        guard deadline > now else { return }
        let left = deadline - now
        var request = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}

/// Keeps a value alive so the optimiser cannot drop the work that made it.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}
