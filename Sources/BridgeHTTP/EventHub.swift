import Bridge
import Foundation
import Hummingbird
import InterApp
import Logging
import Synchronization
import ZeroMQ

/// Fans the bridge's events out to `/events` viewers as server-sent events: one thread reads the
/// bridge's event tap (the frames its loop already built) and hands each viewer a copy. A new viewer
/// asks the loop for a `lanes` snapshot and gets only the events after it. A viewer may follow only the
/// topics its `topic` prefixes take (``EventTap/shows(_:to:)``); its snapshot then has only their lanes.
final class EventHub: Sendable {
    /// The most writes one viewer may have waiting (each up to ``batchLimit`` events); a viewer that
    /// reads slower loses the oldest (its `seq` shows the gap; a viewer with a `topic` filter sees gaps
    /// anyway, the events of other topics).
    static let viewerBuffer = 256

    private struct Viewer {
        let continuation: AsyncStream<ByteBuffer>.Continuation
        /// The topics it follows; nil: every event.
        let filter: TopicPrefixes?
        /// The least `seq` of a snapshot that starts it (``EventTap/viewerJoined(filter:)``): an older
        /// one, asked for by another viewer, could be followed by events the loop built without it in view.
        let startsAtSeq: Int
        /// False until its snapshot was sent: events before it are not its own.
        var started = false
        /// When its snapshot was last asked for (asked again if none came: a request made before the
        /// reader's socket joined the tap is lost, as ZeroMQ's PUB drops what nobody subscribed to yet).
        var askedAt = DispatchTime.now()
    }

    private struct State {
        var viewers: [Int: Viewer] = [:]
        var nextId = 0
        var closed = false
        var readerRunning = false
    }

    private let bridge: Bridge
    private let logger: Logger
    private let state = Mutex(State())

    init(bridge: Bridge, logger: Logger) {
        self.bridge = bridge
        self.logger = logger
    }

    /// A new viewer's stream: its `lanes` snapshot first, then every event after it that `filter` shows
    /// (nil: every event). Nil once the hub is closed or the bridge's loop has ended.
    func subscribe(filter: TopicPrefixes?) -> AsyncStream<ByteBuffer>? {
        guard bridge.live.phase != .stopped else { return nil }
        let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream(
            bufferingPolicy: .bufferingNewest(Self.viewerBuffer))
        // The loop sees the viewer before the hub does: no snapshot can start it earlier than it should.
        let startsAtSeq = bridge.tap.viewerJoined(filter: filter)
        let (id, startReader) = state.withLock { state -> (Int?, Bool) in
            guard !state.closed else { return (nil, false) }
            let id = state.nextId
            state.nextId += 1
            state.viewers[id] = Viewer(continuation: continuation, filter: filter, startsAtSeq: startsAtSeq)
            let start = !state.readerRunning
            state.readerRunning = true
            return (id, start)
        }
        guard let id else {
            bridge.tap.viewerLeft(filter: filter)
            return nil
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        if startReader { startReading() }
        bridge.requestLanesSnapshot()
        return stream
    }

    /// Ends every viewer's stream and stops the reader (the listener is shutting down).
    func close() {
        let viewers = state.withLock { state -> [Viewer] in
            state.closed = true
            defer { state.viewers.removeAll() }
            return Array(state.viewers.values)
        }
        for viewer in viewers {
            bridge.tap.viewerLeft(filter: viewer.filter)
            viewer.continuation.finish()
        }
    }

    private func remove(_ id: Int) {
        guard let removed = state.withLock({ $0.viewers.removeValue(forKey: id) }) else { return }
        bridge.tap.viewerLeft(filter: removed.filter)
    }

    private func startReading() {
        // Named where `top -H` and `perf` show it (Foundation's `Thread.name` does not reach the kernel).
        _ = LoopThread.start(name: "http-events") { [self] in read() }
    }

    /// Reads the tap until the hub closes or the bridge's ZeroMQ context ends, then closes its socket
    /// (the bridge cannot finish stopping before it does).
    private func read() {
        let socket: Socket
        do {
            socket = try bridge.makeTapSubscriber()
        } catch {
            logger.error("the /events reader could not attach to the bridge", metadata: ["error": "\(error)"])
            close()
            return
        }
        defer {
            socket.close()
            close()
        }
        let poller = Poller()
        poller.add(socket)
        let snapshotTopic = Array(EventTap.snapshotTopic.utf8)
        while !state.withLock({ $0.closed }) {
            do {
                askAgainForLostSnapshots()
                guard try poller.poll(timeoutMilliseconds: 200) > 0 else { continue }
                // What arrives within ``batchWindowMs`` goes out as one write per viewer, not one per
                // event: at thousands of events a second the writes, not the events, would cost (a
                // person watching a page does not see 50 ms).
                Thread.sleep(forTimeInterval: Double(Self.batchWindowMs) / 1000)
                var batches = startedBatches()
                var taken = 0
                while taken < Self.batchLimit, let frames = try socket.receive(wait: false) {
                    // A turn's events, or a snapshot alone (EventTap).
                    for message in frames {
                        EventTap.forEachEvent(in: message) { topic, body in
                            taken += 1
                            if topic.elementsEqual(snapshotTopic) {
                                sendToStarted(batches)
                                sendSnapshot(topic: topic, body: body)
                                batches = startedBatches()
                            } else {
                                batches.add(topic: topic, body: body)
                            }
                        }
                    }
                }
                sendToStarted(batches)
            } catch {
                return
            }
        }
    }

    private func askAgainForLostSnapshots() {
        let now = DispatchTime.now()
        let waiting = state.withLock { state -> Bool in
            var any = false
            for (id, viewer) in state.viewers
            where !viewer.started && now.uptimeNanoseconds > viewer.askedAt.uptimeNanoseconds + 500_000_000 {
                state.viewers[id]?.askedAt = now
                any = true
            }
            return any
        }
        if waiting { bridge.requestLanesSnapshot() }
    }

    /// The most events gathered into one write (a turn's are never split).
    static let batchLimit = 4096
    /// How long the reader gathers events before it writes them to the viewers.
    static let batchWindowMs = 50

    /// Empty batches for the viewers started now: one for those without a filter, one a distinct filter.
    private func startedBatches() -> ViewerBatches {
        state.withLock { state in
            ViewerBatches(filters: state.viewers.values.lazy.filter(\.started).map(\.filter))
        }
    }

    private func sendToStarted(_ batches: ViewerBatches) {
        guard let buffers = batches.buffers() else { return }
        state.withLock { state in
            for viewer in state.viewers.values where viewer.started {
                if let buffer = buffers[viewer.filter] { viewer.continuation.yield(buffer) }
            }
        }
    }

    /// Starts the viewers waiting for a snapshot that this one may start (its `seq` is at least their
    /// ``Viewer/startsAtSeq``), each with it cut to the lanes its filter follows; the others wait for a later
    /// one (each asked for its own). Built outside the lock: HTTP threads take it to join and leave.
    private func sendSnapshot(topic: ArraySlice<UInt8>, body: ArraySlice<UInt8>) {
        guard case .object(let snapshot)? = try? JSONValue.parse(Array(body)), let seq = snapshot["seq"]?.intValue
        else {
            logger.error("a lanes snapshot from the bridge could not be read; it started no viewer")
            return
        }
        let filters = state.withLock { state in
            Set(state.viewers.values.lazy.filter { !$0.started && $0.startsAtSeq <= seq }.map(\.filter))
        }
        guard !filters.isEmpty else { return }
        let built = Dictionary(
            uniqueKeysWithValues: filters.map { ($0, Self.snapshot(topic: topic, snapshot, body: body, for: $0)) })
        state.withLock { state in
            for (id, viewer) in state.viewers where !viewer.started && viewer.startsAtSeq <= seq {
                guard let buffer = built[viewer.filter] else { continue }  // joined meanwhile: its own comes
                state.viewers[id]?.started = true
                viewer.continuation.yield(buffer)
            }
        }
    }

    /// A `lanes` snapshot (`body`, read as `snapshot`) as a viewer with `filter` gets it: whole for a viewer
    /// of everything; for one with a filter only the lanes whose topics its prefixes may take, and no `today`
    /// (the day's counts are the whole bridge's; events of other lanes, which a page would count them by,
    /// never reach it).
    static func snapshot(
        topic: ArraySlice<UInt8>, _ snapshot: JSONObject, body: ArraySlice<UInt8>, for filter: TopicPrefixes?
    ) -> ByteBuffer {
        guard let filter else { return message(topic: topic, body: body) }
        var object = snapshot
        let lanes = object["lanes"]?.arrayValue ?? []
        object["lanes"] = .array(
            lanes.filter { $0.objectValue?["lane"]?.stringValue.map(filter.mayTake(lane:)) ?? false })
        object["today"] = nil
        return message(topic: topic, body: JSONValue.object(object).serialized()[...])
    }

    /// One server-sent event: `data: {"topic":"…",<the body's members>}` and a blank line.
    static func message(topic: ArraySlice<UInt8>, body: ArraySlice<UInt8>) -> ByteBuffer {
        var out: [UInt8] = []
        append(topic: topic, body: body, to: &out)
        return ByteBuffer(bytes: out)
    }

    /// Appends one server-sent event to `out`.
    static func append(topic: ArraySlice<UInt8>, body: ArraySlice<UInt8>, to out: inout [UInt8]) {
        out.append(contentsOf: "data: {\"topic\":".utf8)
        JSONValue.string(String(decoding: topic, as: UTF8.self)).write(into: &out)
        if body.count > 2 {
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: body.dropFirst())
        } else {
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "\n\n".utf8)
    }
}
