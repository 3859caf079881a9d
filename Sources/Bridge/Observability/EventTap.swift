import Foundation
import Synchronization

/// Where the loop hands the events it already built to in-process readers (the HTTP listener's
/// `/events`): an inproc PUB socket in the bridge's ZeroMQ context, written only while a reader says it
/// has viewers, so that a bridge nobody watches over HTTP builds and sends nothing more.
///
/// Each message holds the events of one turn of the loop, two frames each, as on the events socket: the
/// topic and the stamped JSON body, then the next event's (one message a turn, not one an event: under load a
/// turn publishes dozens). A reader that asks for a snapshot (``Bridge/requestLanesSnapshot()``) gets a message
/// of its own whose topic is ``snapshotTopic`` and whose body is the `lanes` result with `epoch` and `seq`, in
/// order with the events.
public final class EventTap: Sendable {
    /// The topic of a `lanes` snapshot on the tap (never an event topic: those have three parts).
    public static let snapshotTopic = "lanes"
    /// The inproc endpoint the loop binds.
    public let endpoint = "inproc://vivabridge-tap-\(UUID().uuidString)"
    private let viewerCount = Atomic<Int>(0)

    init() {}

    /// Whether anybody reads the tap now.
    var hasViewers: Bool { viewers > 0 }

    /// How many viewers the readers say they have now.
    public var viewers: Int { viewerCount.load(ordering: .relaxed) }

    /// A reader gained (`+1`) or lost (`-1`) a viewer.
    public func viewers(adding delta: Int) { viewerCount.add(delta, ordering: .relaxed) }
}
