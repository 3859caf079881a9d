/// The epoch rule of one lane's relay (PROTOCOL.md §5): the highest epoch a bridge's `hello` carried, and
/// the links whose `hello` carried it. A link whose `hello` carried a lower epoch (none counts as 0), or that
/// never said hello once a higher one was seen, is a bridge that lost its journal's lease: every frame of
/// it is ignored. Owned by the loop thread.
///
/// A link is known by its routing id, which only a ROUTER relay sees; a DEALER relay (no routing ids) keys
/// every link as one, so it ignores a lower `hello` but cannot tell the frames that follow apart.
struct LinkEpochs {
    /// The highest epoch seen; 0 until a bridge sends one (a v1.1 bridge never does, and is served alone).
    private(set) var highest = 0
    /// The links whose `hello` carried ``highest``, most recent last; at most ``linkLimit``.
    private var current: [[UInt8]] = []

    /// The most links of the highest epoch remembered: a bridge's link gets a new routing id at each
    /// reconnection, and a link forgotten says hello again when it comes back.
    static let linkLimit = 16

    /// A bridge's `hello` on link `from` (nil on a DEALER relay) carrying `epoch`. Returns whether it is
    /// served: false when a higher epoch was seen.
    mutating func hello(from link: [UInt8]?, epoch: Int) -> Bool {
        let key = link ?? []
        if epoch < highest { return false }
        if epoch > highest {
            highest = epoch
            current.removeAll()
        }
        current.removeAll { $0 == key }
        current.append(key)
        if current.count > Self.linkLimit { current.removeFirst(current.count - Self.linkLimit) }
        return true
    }

    /// Whether a frame other than a `hello` from link `from` is served: always while no bridge sent an
    /// epoch, else only from a link whose `hello` carried the highest one.
    func admits(_ link: [UInt8]?) -> Bool {
        highest == 0 || current.contains(link ?? [])
    }

    /// Forgets everything (the relay restarted).
    mutating func reset() { self = LinkEpochs() }
}
