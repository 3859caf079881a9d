import Foundation
import InterApp
import Synchronization

/// Where the loop hands the events it already built to in-process readers (the HTTP listener's
/// `/events`): an inproc PUB socket in the bridge's ZeroMQ context, written only while a reader says it
/// has viewers, so that a bridge nobody watches over HTTP builds and sends nothing more.
///
/// Each message is one frame holding the events of one turn of the loop, in order: each event's topic and
/// its stamped JSON body, as on the events socket, each after its length (``append(topic:to:body:)``,
/// ``forEachEvent(in:_:)``). One frame a turn, not two an event: under load a turn publishes dozens, and a
/// frame costs both ends an allocation and a copy. A reader that asks for a snapshot
/// (``Bridge/requestLanesSnapshot()``) gets a message of its own whose one event has the topic
/// ``snapshotTopic`` and the `lanes` result with `epoch` and `seq` for its body, in order with the events.
public final class EventTap: Sendable {
    /// The topic of a `lanes` snapshot on the tap (never an event topic: those have three parts).
    public static let snapshotTopic = "lanes"
    /// The inproc endpoint the loop binds.
    public let endpoint = "inproc://vivabridge-tap-\(UUID().uuidString)"
    private let viewerCount = Atomic<Int>(0)
    /// Viewers that take every event.
    private let unfilteredCount = Atomic<Int>(0)
    /// The union of the other viewers' `topic` filters.
    private let filtered = Mutex(TopicPrefixes())

    /// The bridge's own state, which a viewer with a `topic` filter gets whatever its prefixes: the
    /// heartbeat (a page knows the bridge is alive) and the journal's events (whether commands are taken).
    public static let alwaysShown = TopicPrefixes([
        "\(Topic.heartbeat)", "\(Topic.bridgeLane).\(Topic.journalSubject).",
    ])

    init() {}

    /// Whether anybody reads the tap now.
    var hasViewers: Bool { viewers > 0 }

    /// How many viewers the readers say they have now.
    public var viewers: Int { viewerCount.load(ordering: .relaxed) }

    /// A reader gained a viewer that takes the topics `filter` takes (and ``alwaysShown``), or every
    /// topic when `filter` is nil.
    public func viewerJoined(filter: TopicPrefixes?) {
        if let filter { filtered.withLock { $0.formUnion(filter) } } else { unfilteredCount.add(1, ordering: .relaxed) }
        viewerCount.add(1, ordering: .relaxed)
    }

    /// A reader lost a viewer that had joined with `filter`.
    public func viewerLeft(filter: TopicPrefixes?) {
        viewerCount.subtract(1, ordering: .relaxed)
        if let filter {
            filtered.withLock { $0.subtract(filter) }
        } else {
            unfilteredCount.subtract(1, ordering: .relaxed)
        }
    }

    /// Whether a viewer with `filter` (nil: none) is shown an event of `topic`.
    public static func shows(_ topic: ArraySlice<UInt8>, to filter: TopicPrefixes?) -> Bool {
        guard let filter else { return true }
        return filter.takes(topic) || alwaysShown.takes(topic)
    }

    /// Whether some viewer now is shown an event of `topic`: the loop builds nothing for the tap otherwise,
    /// so a page that follows a few lanes costs the loop in proportion.
    func wants(_ topic: [UInt8]) -> Bool {
        if unfilteredCount.load(ordering: .relaxed) > 0 { return true }
        return Self.alwaysShown.takes(topic) || filtered.withLock { $0.takes(topic) }
    }

    /// Appends one event to a tap message: its topic, then the body `writeBody` appends, each after its
    /// length in bytes (4, little-endian).
    static func append(topic: [UInt8], to message: inout [UInt8], body writeBody: (inout [UInt8]) -> Void) {
        appendLength(topic.count, to: &message)
        message.append(contentsOf: topic)
        let lengthAt = message.count
        appendLength(0, to: &message)
        writeBody(&message)
        let length = UInt32(message.count - lengthAt - 4)
        for index in 0..<4 { message[lengthAt + index] = UInt8(truncatingIfNeeded: length >> (8 * index)) }
    }

    /// Calls `each` with the topic and the body of every event of a tap message, in order. Returns false
    /// when the message ends in the middle of one (nothing the loop sends; that event and the rest are left).
    @discardableResult
    public static func forEachEvent(
        in message: [UInt8], _ each: (_ topic: ArraySlice<UInt8>, _ body: ArraySlice<UInt8>) -> Void
    ) -> Bool {
        var at = 0
        func next() -> ArraySlice<UInt8>? {
            guard message.count - at >= 4 else { return nil }
            var length = 0
            for index in 0..<4 { length |= Int(message[at + index]) << (8 * index) }
            guard message.count - at - 4 >= length else { return nil }
            defer { at += 4 + length }
            return message[(at + 4)..<(at + 4 + length)]
        }
        while at < message.count {
            guard let topic = next(), let body = next() else { return false }
            each(topic, body)
        }
        return true
    }

    private static func appendLength(_ length: Int, to message: inout [UInt8]) {
        let value = UInt32(length)
        for index in 0..<4 { message.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }
}
