/// The callbacks a lane's relay numbered (v1.3, `["callback", url, n]`) that this bridge took, so that a
/// second copy is known as one: a relay sends every callback it holds unanswered again after each `hello`,
/// and the `received` of the first copy may have been lost with the link (PROTOCOL.md §5).
///
/// A copy is the same `n` with the same URL bytes: a relay that restarted numbers from 1 again, and its new
/// callback `n` carries another URL (another transaction, another time). Bounded: a relay sends again only
/// what it sent since its last `received`, the newest callbacks.
struct RelaySequenceMemory {
    /// The URL taken under each remembered number.
    private var urls: [UInt64: [UInt8]] = [:]
    /// The remembered numbers, oldest first.
    private var order: [UInt64] = []

    /// How many numbers a lane remembers.
    static let limit = 1024

    /// Whether callback `seq` with `url` is a copy of one already taken.
    func isCopy(seq: UInt64, url: [UInt8]) -> Bool { urls[seq] == url }

    /// Remembers callback `seq` as taken (a restarted relay's new `seq` replaces the old one's).
    mutating func took(seq: UInt64, url: [UInt8]) {
        if urls.updateValue(url, forKey: seq) != nil { order.removeAll { $0 == seq } }
        order.append(seq)
        if order.count > Self.limit {
            let forgotten = order.count - Self.limit
            for old in order.prefix(forgotten) { urls[old] = nil }
            order.removeFirst(forgotten)
        }
    }
}
