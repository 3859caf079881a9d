import BridgeCore

/// What the `/events` viewers want of the event tap, as the loop decides by it: how many take every event,
/// and the counted union of the others' `topic` prefixes. The loop keeps a copy and takes it again only
/// when a viewer came or went (``EventTap/interest(ifChangedSince:)``), so deciding takes no lock.
package struct TapInterest {
    /// Past this many distinct prefixes every event is built, as for a viewer of everything: matching each
    /// event against hundreds of prefixes would cost the loop more than building it.
    static let mostPrefixes = 64

    private var unfiltered = 0
    private var union = TopicPrefixes()

    /// No viewer yet.
    package init() {}

    /// A viewer with `filter` (nil: every event) joined.
    mutating func add(_ filter: TopicPrefixes?) {
        if let filter { union.formUnion(filter) } else { unfiltered += 1 }
    }

    /// A viewer with `filter` left.
    mutating func remove(_ filter: TopicPrefixes?) {
        if let filter { union.subtract(filter) } else { unfiltered -= 1 }
    }

    /// Whether some viewer is shown an event of `topic`: the loop builds nothing for the tap otherwise, so a
    /// page that follows a few lanes costs the loop in proportion.
    package func wants(_ topic: [UInt8]) -> Bool {
        unfiltered > 0 || union.distinctCount > Self.mostPrefixes || EventTap.alwaysShown.takes(topic)
            || union.takes(topic)
    }
}
