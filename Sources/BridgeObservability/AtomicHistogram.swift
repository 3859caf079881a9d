import BridgeCore
import Synchronization

/// A Prometheus histogram the loop records into without a lock: one atomic per bucket, read (not
/// locked) by a scrape. swift-prometheus's own histogram takes a lock per observation, which the loop
/// must never wait on.
package final class AtomicHistogram: Sendable {
    /// Upper bounds in seconds, ascending; `+Inf` follows.
    let bounds: [Double]
    private let counts: [AtomicCell]
    private let sumMicroseconds = Atomic<Int>(0)

    init(bounds: [Double]) {
        self.bounds = bounds
        counts = (0...bounds.count).map { _ in AtomicCell() }
    }

    /// Records one observation of `seconds`.
    package func record(seconds: Double) {
        let index = bounds.firstIndex { seconds <= $0 } ?? bounds.count
        counts[index].value.add(1, ordering: .relaxed)
        sumMicroseconds.add(Int((max(0, seconds) * 1_000_000).rounded()), ordering: .relaxed)
    }

    /// The `_bucket`, `_sum` and `_count` lines under `name`, with `labels` (already rendered, e.g.
    /// `action="sale"`, or empty); nothing when no observation was made.
    func render(name: String, labels: String, into out: inout String) {
        let values = counts.map { $0.value.load(ordering: .relaxed) }
        let total = values.reduce(0, +)
        guard total > 0 || labels.isEmpty else { return }
        let prefix = labels.isEmpty ? "" : labels + ","
        var cumulative = 0
        for (bound, count) in zip(bounds, values) {
            cumulative += count
            out += "\(name)_bucket{\(prefix)le=\"\(bound)\"} \(cumulative)\n"
        }
        out += "\(name)_bucket{\(prefix)le=\"+Inf\"} \(total)\n"
        let braces = labels.isEmpty ? "" : "{\(labels)}"
        let sum = Double(sumMicroseconds.load(ordering: .relaxed)) / 1_000_000
        out += "\(name)_sum\(braces) \(sum)\n\(name)_count\(braces) \(total)\n"
    }
}

/// One atomic integer, in a class so that many fit in an array.
final class AtomicCell: Sendable {
    let value = Atomic<Int>(0)
}
