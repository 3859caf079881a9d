/// A small, fast, seedable random generator (Steele, Lea and Flood's SplitMix64): the simulator never uses
/// system randomness, so a seed replays the same card numbers, codes and UUIDs.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed.
    init(seed: UInt64) {
        state = seed
    }

    /// Creates a lane's own generator from the simulator's seed and the lane id, so that each lane's numbers
    /// depend only on its own requests, not on how lanes interleave.
    init(seed: UInt64, lane: String) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a
        for byte in lane.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        var mixer = SplitMix64(seed: seed ^ hash)
        state = mixer.next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound`.
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// `count` decimal digits, the first one not zero when `leadingNonZero`.
    mutating func digits(_ count: Int, leadingNonZero: Bool = false) -> String {
        var bytes = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            let low = leadingNonZero && index == 0 ? 1 : 0
            bytes[index] = UInt8(ascii: "0") + UInt8(low + below(10 - low))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A version-4 UUID, in lower or upper case hexadecimal.
    mutating func uuid(uppercase: Bool = false) -> String {
        let high = next()
        let low = next()
        var raw = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            raw[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64(index)))
            raw[index + 8] = UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64(index)))
        }
        raw[6] = raw[6] & 0x0F | 0x40
        raw[8] = raw[8] & 0x3F | 0x80
        let hex = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in raw.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
