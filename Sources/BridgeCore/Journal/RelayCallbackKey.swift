/// A numbered callback (v1.3, `["callback", url, n]`) as the journal keeps it: the relay's `n` and the FNV-1a
/// 64 hash of the URL bytes (`callbacks.relay_seq`, `callbacks.relay_url_hash`), so that a bridge that
/// restarted still knows a copy its relay sends again (``RelaySequenceMemory``). The URL itself is not kept:
/// only its fields, card data masked.
@usableFromInline package struct RelayCallbackKey: Equatable, Sendable {
    /// The relay's number for the callback.
    @usableFromInline package let seq: UInt64
    /// FNV-1a 64 of the callback URL's bytes, as received.
    @usableFromInline package let urlHash: UInt64

    package init(seq: UInt64, url: [UInt8]) {
        self.seq = seq
        urlHash = Self.fnv1a(url)
    }

    package init(seq: UInt64, urlHash: UInt64) {
        self.seq = seq
        self.urlHash = urlHash
    }

    /// FNV-1a, 64 bits.
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    /// The key as the journal's signed 64-bit columns hold it: `n` (nil past `Int64.max`, never sent by a
    /// relay that numbers from 1), and the hash's bits as they are.
    @inlinable package var columns: (seq: Int64, urlHash: Int64)? {
        guard let seq = Int64(exactly: seq) else { return nil }
        return (seq, Int64(bitPattern: urlHash))
    }

    /// The key a journaled row holds, nil when it holds none.
    package init?(seq: Int64?, urlHash: Int64?) {
        guard let seq, let urlHash, seq > 0 else { return nil }
        self.init(seq: UInt64(seq), urlHash: UInt64(bitPattern: urlHash))
    }
}
