import Bridge
import Foundation
import Hummingbird
import InterApp
import Logging
import Synchronization
import ZeroMQ

/// Fans the bridge's events out to `/events` viewers as server-sent events: one thread reads the
/// bridge's event tap (the frames its loop already built) and hands each viewer a copy. A new viewer
/// asks the loop for a `lanes` snapshot and gets only the events after it.
final class EventHub: Sendable {
    /// The most writes one viewer may have waiting (each up to ``batchLimit`` events); a viewer that
    /// reads slower loses the oldest (its `seq` shows the gap).
    static let viewerBuffer = 256

    private struct Viewer {
        let continuation: AsyncStream<ByteBuffer>.Continuation
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

    /// A new viewer's stream: its `lanes` snapshot first, then every event after it. Nil once the hub
    /// is closed or the bridge's loop has ended.
    func subscribe() -> AsyncStream<ByteBuffer>? {
        guard bridge.live.phase != .stopped else { return nil }
        let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream(
            bufferingPolicy: .bufferingNewest(Self.viewerBuffer))
        let (id, startReader) = state.withLock { state -> (Int?, Bool) in
            guard !state.closed else { return (nil, false) }
            let id = state.nextId
            state.nextId += 1
            state.viewers[id] = Viewer(continuation: continuation)
            let start = !state.readerRunning
            state.readerRunning = true
            return (id, start)
        }
        guard let id else { return nil }
        bridge.tap.viewers(adding: 1)
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
        for viewer in viewers { viewer.continuation.finish() }
    }

    private func remove(_ id: Int) {
        let removed = state.withLock { $0.viewers.removeValue(forKey: id) != nil }
        if removed { bridge.tap.viewers(adding: -1) }
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
                var batch: [UInt8] = []
                var taken = 0
                while taken < Self.batchLimit, let frames = try socket.receive(wait: false) {
                    // A turn's events, or a snapshot alone (EventTap).
                    for message in frames {
                        EventTap.forEachEvent(in: message) { topic, body in
                            taken += 1
                            if topic.elementsEqual(snapshotTopic) {
                                sendToStarted(batch)
                                batch.removeAll(keepingCapacity: true)
                                sendSnapshot(Self.message(topic: topic, body: body))
                            } else {
                                Self.append(topic: topic, body: body, to: &batch)
                            }
                        }
                    }
                }
                sendToStarted(batch)
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

    private func sendToStarted(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        let buffer = ByteBuffer(bytes: bytes)
        state.withLock { state in
            for viewer in state.viewers.values where viewer.started { viewer.continuation.yield(buffer) }
        }
    }

    private func sendSnapshot(_ buffer: ByteBuffer) {
        state.withLock { state in
            for (id, viewer) in state.viewers where !viewer.started {
                state.viewers[id]?.started = true
                viewer.continuation.yield(buffer)
            }
        }
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
