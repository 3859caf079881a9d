/// The callbacks a lane's relay numbered (v1.3, `["callback", url, n]`) that this bridge took, so that a
/// second copy is known as one: a relay sends every callback it holds unanswered again after each `hello`,
/// and the `received` of the first copy may have been lost with the link (PROTOCOL.md §5).
///
/// A copy is the same `n` with the same URL bytes (by their FNV-1a 64 hash, ``RelayCallbackKey``): a relay
/// that restarted numbers from 1 again, and its new callback `n` carries another URL (another transaction,
/// another time). The journal keeps each numbered callback's key (`callbacks.relay_seq`, `relay_url_hash`), and
/// a start refills the memory from the newest of them (``Correlator/restore()``), so a copy sent to a bridge
/// that restarted is known too. Bounded: a relay sends again only what it sent since its last `received`, the
/// newest callbacks.
package struct RelaySequenceMemory {
    /// The URL hash taken under each remembered number.
    private var hashes: [UInt64: UInt64] = [:]
    /// The remembered numbers, oldest first.
    private var order: [UInt64] = []

    /// How many numbers a lane remembers.
    static let limit = 1024

    /// Whether the callback `key` names is a copy of one already taken.
    func isCopy(_ key: RelayCallbackKey) -> Bool { hashes[key.seq] == key.urlHash }

    /// Remembers the callback `key` names as taken (a restarted relay's new `seq` replaces the old one's).
    mutating func took(_ key: RelayCallbackKey) {
        if hashes.updateValue(key.urlHash, forKey: key.seq) != nil { order.removeAll { $0 == key.seq } }
        order.append(key.seq)
        if order.count > Self.limit {
            let forgotten = order.count - Self.limit
            for old in order.prefix(forgotten) { hashes[old] = nil }
            order.removeFirst(forgotten)
        }
    }
}
