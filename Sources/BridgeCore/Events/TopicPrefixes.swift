import InterApp

/// Topic prefixes as a ZeroMQ SUB socket subscribes (docs/PROTOCOL.md §4): a topic is taken when one of them
/// takes it (``Topic/prefix(_:takes:)``, the rule's one home). Each prefix is counted, so that two holders of
/// one prefix can each let go of it. The events socket's subscriptions (what XPUB tells the loop), an
/// `/events` viewer's `topic` filter, and the union of those filters on the event tap.
/// Equal when the same prefixes are held as often (two viewers' filters given alike are equal).
public struct TopicPrefixes: Hashable, Sendable {
    private var counts: [[UInt8]: Int] = [:]

    /// No prefix: takes no topic.
    public init() {}

    /// The given prefixes, each counted once however often it is given.
    public init(_ prefixes: some Sequence<String>) {
        for prefix in Set(prefixes) { insert(Array(prefix.utf8)) }
    }

    /// Whether no prefix is held.
    public var isEmpty: Bool { counts.isEmpty }

    /// Whether the empty prefix is held: every topic is taken.
    public var takesEverything: Bool { counts[[]] != nil }

    /// How many different prefixes are held.
    public var distinctCount: Int { counts.count }

    /// Holds `prefix` once more.
    public mutating func insert(_ prefix: [UInt8]) { counts[prefix, default: 0] += 1 }

    /// Lets go of `prefix` once; it stays while it is held more often.
    public mutating func remove(_ prefix: [UInt8]) {
        guard let count = counts[prefix] else { return }
        counts[prefix] = count > 1 ? count - 1 : nil
    }

    /// Holds every prefix of `other` once more.
    public mutating func formUnion(_ other: TopicPrefixes) { for prefix in other.counts.keys { insert(prefix) } }

    /// Lets go of every prefix of `other` once.
    public mutating func subtract(_ other: TopicPrefixes) { for prefix in other.counts.keys { remove(prefix) } }

    /// Whether a prefix held takes `topic`. (Not generic: called from another module, a generic one runs
    /// unspecialized, a protocol call a byte, on the `/events` hub's path for every event.)
    public func takes(_ topic: ArraySlice<UInt8>) -> Bool {
        takesEverything || counts.keys.contains { Topic.prefix($0, takes: topic) }
    }

    /// Whether a prefix held takes `topic`.
    public func takes(_ topic: [UInt8]) -> Bool { takes(topic[...]) }

    /// Whether a prefix held can take some topic of lane `lane` (``Topic/prefix(_:mayTakeTopicsOf:)``).
    public func mayTake(lane: String) -> Bool {
        counts.keys.contains { Topic.prefix($0, mayTakeTopicsOf: lane) }
    }
}
