/// Which command ids the journal may hold, answered from memory: a Bloom filter over every id journaled,
/// so that a new command's id (nearly always new) is known to be new without a `SELECT` on the loop
/// thread (issue 17: the look-up was about a tenth of the loop's time).
///
/// "No" is certain: every id the journal holds was added, at open (read from the journal) or before its
/// insert was written. "Maybe" is followed by the journal look-up, as before. It grows by adding layers
/// of twice the capacity, so that its false-positive rate stays near 1% however many commands come,
/// without ever re-reading the journal. Ids pruned from the journal stay in it (a "maybe" more: harmless).
package struct KnownIdFilter {
    private var layers: [Layer]

    /// An empty filter sized for `capacity` ids in its first layer.
    package init(capacity: Int = 1 << 16) {
        layers = [Layer(capacity: max(1024, capacity))]
    }

    /// Adds `id`.
    package mutating func insert(_ id: String) {
        if layers[layers.count - 1].isFull {
            layers.append(Layer(capacity: layers[layers.count - 1].capacity * 2))
        }
        layers[layers.count - 1].insert(Self.hashes(id))
    }

    /// False when `id` was certainly never added; true when it may have been.
    package func mightContain(_ id: String) -> Bool {
        let hashes = Self.hashes(id)
        return layers.contains { $0.mightContain(hashes) }
    }

    /// Ids added so far.
    package var count: Int { layers.reduce(0) { $0 + $1.count } }

    /// Two independent 64-bit hashes of `id`; the k probes are `first + i * second` (Kirsch–Mitzenmacher).
    /// Swift's `Hasher` is seeded per process, which suits a filter that lives only in memory.
    private static func hashes(_ id: String) -> (UInt64, UInt64) {
        var first = Hasher()
        first.combine(0x5EED_0001 as UInt32)
        first.combine(id)
        var second = Hasher()
        second.combine(0x5EED_0002 as UInt32)
        second.combine(id)
        return (UInt64(bitPattern: Int64(first.finalize())), UInt64(bitPattern: Int64(second.finalize())) | 1)
    }

    /// One fixed-size Bloom filter: 10 bits and 7 probes per id, about 1% false positives when full.
    private struct Layer {
        static let bitsPerId = 10
        static let probes: UInt64 = 7
        let capacity: Int
        private(set) var count = 0
        private var words: [UInt64]
        private let bitCount: UInt64

        init(capacity: Int) {
            self.capacity = capacity
            let bits = capacity * Self.bitsPerId
            words = Array(repeating: 0, count: (bits + 63) / 64)
            bitCount = UInt64(words.count * 64)
        }

        var isFull: Bool { count >= capacity }

        mutating func insert(_ hashes: (UInt64, UInt64)) {
            for probe in 0..<Self.probes {
                let bit = (hashes.0 &+ probe &* hashes.1) % bitCount
                words[Int(bit >> 6)] |= 1 << (bit & 63)
            }
            count += 1
        }

        func mightContain(_ hashes: (UInt64, UInt64)) -> Bool {
            for probe in 0..<Self.probes {
                let bit = (hashes.0 &+ probe &* hashes.1) % bitCount
                if words[Int(bit >> 6)] & (1 << (bit & 63)) == 0 { return false }
            }
            return true
        }
    }
}
