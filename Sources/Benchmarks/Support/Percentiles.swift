/// Latency samples in nanoseconds and their percentiles (nearest rank on the sorted samples).
struct LatencySummary: Sendable {
    let count: Int
    let p50: Double
    let p99: Double
    let p999: Double
    let max: Double

    /// Summarises `samples` (nanoseconds); every figure is in microseconds.
    init(samples: [UInt64]) {
        let sorted = samples.sorted()
        count = sorted.count
        func rank(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            let index = Swift.min(sorted.count - 1, Swift.max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1))
            return Double(sorted[index]) / 1000
        }
        p50 = rank(0.50)
        p99 = rank(0.99)
        p999 = rank(0.999)
        max = sorted.last.map { Double($0) / 1000 } ?? .nan
    }
}
