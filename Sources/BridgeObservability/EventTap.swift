import BridgeCore
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
///
/// A viewer may follow only some topics (`/events?topic=`): the loop builds an event for the tap only when
/// some viewer is shown it (``TapInterest``). A viewer that joins learns the `seq` of the last event the loop
/// decided on before it saw the viewer (``viewerJoined(filter:)``); a snapshot with that `seq` or a later
/// one starts it, and every event after such a snapshot was built with the viewer in view.
public final class EventTap: Sendable {
    /// The topic of a `lanes` snapshot on the tap (never an event topic: those have three parts).
    public static let snapshotTopic = "lanes"
    /// The inproc endpoint the loop binds.
    public let endpoint = "inproc://vivabridge-tap-\(UUID().uuidString)"
    private let viewerCount = Atomic<Int>(0)
    private let interest = Mutex(TapInterest())
    /// Moved after every change of ``interest``: the loop takes a copy again only then.
    private let interestGeneration = Atomic<Int>(0)
    /// The `seq` of the event the loop is deciding on, stored before it looks at the viewers.
    private let deciding = Atomic<Int>(0)
    /// How many times a loop bound ``endpoint`` (``binding``).
    private let bindings = Atomic<Int>(0)

    /// The bridge's own state, which a viewer with a `topic` filter gets whatever its prefixes: the
    /// heartbeat (a page knows the bridge is alive) and the journal's events (whether commands are taken).
    public static let alwaysShown = TopicPrefixes([
        "\(Topic.heartbeat)", Topic.prefix(lane: Topic.bridgeLane, subject: Topic.journalSubject),
    ])

    package init() {}

    /// Whether anybody reads the tap now.
    package var hasViewers: Bool { viewers > 0 }

    /// How many viewers the readers say they have now.
    /// (Sequentially consistent: the loop reads it after storing the `seq` it decides on, and a joining
    /// viewer reads that `seq` after counting itself; either sees the other's write.)
    public var viewers: Int { viewerCount.load(ordering: .sequentiallyConsistent) }

    /// A reader gained a viewer that takes the topics `filter` takes (and ``alwaysShown``), or every
    /// topic when `filter` is nil. Returns the `seq` a snapshot must have at least to start it: every event
    /// after that one is built with this viewer in view.
    public func viewerJoined(filter: TopicPrefixes?) -> Int {
        interest.withLock { $0.add(filter) }
        interestGeneration.add(1, ordering: .sequentiallyConsistent)
        viewerCount.add(1, ordering: .sequentiallyConsistent)
        return deciding.load(ordering: .sequentiallyConsistent)
    }

    /// A reader lost a viewer that had joined with `filter`.
    public func viewerLeft(filter: TopicPrefixes?) {
        viewerCount.subtract(1, ordering: .sequentiallyConsistent)
        interest.withLock { $0.remove(filter) }
        interestGeneration.add(1, ordering: .sequentiallyConsistent)
    }

    /// Moves each time a loop binds ``endpoint``, after it did: a bridge on a shared journal binds it anew at
    /// each activation, and an inproc connection made before does not follow (its bind is gone). A reader
    /// that reads this before it connects, and connects again whenever it moved since, reads the loop now bound.
    public var binding: Int { bindings.load(ordering: .sequentiallyConsistent) }

    /// The loop bound ``endpoint``: a new activation, whose events count their `seq` from the start again, so a
    /// viewer that joins now is started by any of its snapshots (not only by one past the last activation's `seq`).
    package func bound() {
        deciding.store(0, ordering: .sequentiallyConsistent)
        bindings.add(1, ordering: .sequentiallyConsistent)
    }

    /// The loop is deciding who is shown the event `seq` (before it reads ``hasViewers`` or the interest).
    package func deciding(seq: Int) { deciding.store(seq, ordering: .sequentiallyConsistent) }

    /// The viewers' interest and its generation, when the generation moved from `generation` (the loop's
    /// copy is then stale); nil when it did not.
    package func interest(ifChangedSince generation: Int) -> (interest: TapInterest, generation: Int)? {
        let now = interestGeneration.load(ordering: .sequentiallyConsistent)
        guard now != generation else { return nil }
        return (interest.withLock { $0 }, now)
    }

    /// Whether a viewer with `filter` (nil: none) is shown an event of `topic`.
    public static func shows(_ topic: ArraySlice<UInt8>, to filter: TopicPrefixes?) -> Bool {
        guard let filter else { return true }
        return filter.takes(topic) || alwaysShown.takes(topic)
    }

    /// Appends one event to a tap message: its topic, then the body `writeBody` appends, each after its
    /// length in bytes (4, little-endian).
    package static func append(topic: [UInt8], to message: inout [UInt8], body writeBody: (inout [UInt8]) -> Void) {
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
