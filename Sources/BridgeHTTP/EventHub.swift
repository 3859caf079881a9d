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
    /// The most messages one viewer may have waiting; a viewer that reads slower loses the oldest
    /// (its `seq` shows the gap; the page then reconnects).
    static let viewerBuffer = 2000

    private struct Viewer {
        let continuation: AsyncStream<ByteBuffer>.Continuation
        /// False until its snapshot was sent: events before it are not its own.
        var started = false
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
        let thread = Thread { [self] in read() }
        thread.name = "vivabridge-http-events"
        thread.start()
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
        while !state.withLock({ $0.closed }) {
            do {
                guard try poller.poll(timeoutMilliseconds: 200) > 0 else { continue }
                while let frames = try socket.receive(wait: false) {
                    guard frames.count == 2 else { continue }
                    deliver(topic: frames[0], body: frames[1])
                }
            } catch {
                return
            }
        }
    }

    private func deliver(topic: [UInt8], body: [UInt8]) {
        let isSnapshot = topic == Array(EventTap.snapshotTopic.utf8)
        let message = Self.message(topic: topic, body: body)
        state.withLock { state in
            for (id, viewer) in state.viewers {
                if isSnapshot {
                    guard !viewer.started else { continue }
                    state.viewers[id]?.started = true
                } else if !viewer.started {
                    continue
                }
                viewer.continuation.yield(message)
            }
        }
    }

    /// One server-sent event: `data: {"topic":"…",<the body's members>}` and a blank line.
    static func message(topic: [UInt8], body: [UInt8]) -> ByteBuffer {
        var out: [UInt8] = Array("data: {\"topic\":".utf8)
        out.append(contentsOf: JSONValue.string(String(decoding: topic, as: UTF8.self)).serialized())
        if body.count > 2 {
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: body.dropFirst())
        } else {
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: Array("\n\n".utf8))
        return ByteBuffer(bytes: out)
    }
}
