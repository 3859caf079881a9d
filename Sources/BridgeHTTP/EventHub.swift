import Bridge
import DequeModule
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
///
/// What waits for the viewers is bounded (``HTTPLimits``): at most ``HTTPLimits/maxViewers`` viewers, at
/// most ``HTTPLimits/viewerWrites`` writes each (the oldest go first), and at most
/// ``HTTPLimits/maxViewerBytes`` bytes across them all: past that the slowest viewer (the one whose
/// connection went longest without taking a write) is dropped, its writes freed at once, and its stream
/// ends with an SSE comment saying why.
final class EventHub: Sendable {
    /// What ``subscribe(filter:closeLater:)`` gave.
    enum Subscription {
        /// A viewer: its writes, from its `lanes` snapshot on.
        case viewer(ViewerLease)
        /// The hub is closed or the bridge's loop has ended.
        case stopped
        /// ``HTTPLimits/maxViewers`` viewers are following already.
        case full(Int)
    }

    private struct Viewer {
        /// The topics it follows; nil: every event.
        let filter: TopicPrefixes?
        /// The least `seq` of a snapshot that starts it (``EventTap/viewerJoined(filter:)``): an older
        /// one, asked for by another viewer, could be followed by events the loop built without it in view.
        var startsAtSeq: Int
        /// Closes its connection once its last write had time to go: a viewer dropped, or still connected
        /// at shutdown, that does not read would otherwise hold it (and hold up the listener's stop).
        let closeLater: @Sendable () -> Void
        /// False until its snapshot was sent: events before it are not its own.
        var started = false
        /// When its snapshot was last asked for (asked again if none came: a request made before the
        /// reader's socket joined the tap is lost, as ZeroMQ's PUB drops what nobody subscribed to yet).
        var askedAt = DispatchTime.now()
        /// Writes waiting for its connection, oldest first, and their bytes.
        var queue: Deque<ByteBuffer> = []
        var queuedBytes = 0
        /// When its connection last took a write (or it joined): the viewer that took none for longest is
        /// the slowest.
        var lastTaken = DispatchTime.now()
        /// Its connection's writer, waiting for the next write (its queue is then empty).
        var waiter: CheckedContinuation<ByteBuffer?, Never>?
        /// Dropped: it is sent nothing more than what is queued (its last comment), then its stream ends.
        var dropped = false
    }

    private struct State {
        var viewers: [Int: Viewer] = [:]
        var nextId = 0
        var closed = false
        var readerRunning = false
        /// Viewers counted but not yet added (they are joining the tap).
        var joining = 0
        /// Every viewer's ``Viewer/queuedBytes``, summed.
        var bufferedBytes = 0

        /// Viewers following (not dropped).
        var following: Int { viewers.values.lazy.filter { !$0.dropped }.count }
    }

    /// A viewer dropped while the lock was held, to be told outside it.
    private struct Drop {
        let filter: TopicPrefixes?
        let waiting: Int
        let closeLater: @Sendable () -> Void
    }

    private let bridge: Bridge
    private let logger: Logger
    private let limits: HTTPLimits
    private let metrics: HTTPListenerMetrics
    private let state = Mutex(State())

    init(bridge: Bridge, logger: Logger, limits: HTTPLimits = HTTPLimits()) {
        self.bridge = bridge
        self.logger = logger
        self.limits = limits
        metrics = bridge.metrics.http
    }

    /// A new viewer: its `lanes` snapshot first, then every event after it that `filter` shows (nil:
    /// every event). `closeLater` closes its connection after a grace: called when it is dropped for reading
    /// too slowly, or when the hub closes.
    func subscribe(filter: TopicPrefixes?, closeLater: @escaping @Sendable () -> Void) -> Subscription {
        // A standby has no events to show (nothing would come, not even a snapshot): refused as a stopped bridge is.
        guard bridge.live.phase != .stopped, bridge.live.role == .active else { return .stopped }
        let maxViewers = limits.maxViewers
        let admitted = state.withLock { state -> Subscription? in
            if state.closed { return .stopped }
            if state.following + state.joining >= maxViewers { return .full(maxViewers) }
            state.joining += 1
            return nil
        }
        if let admitted {
            if case .full = admitted { metrics.viewerRefused() }
            return admitted
        }
        // The loop sees the viewer before the hub does: no snapshot can start it earlier than it should.
        let startsAtSeq = bridge.tap.viewerJoined(filter: filter)
        let (id, startReader) = state.withLock { state -> (Int?, Bool) in
            state.joining -= 1
            guard !state.closed else { return (nil, false) }
            let id = state.nextId
            state.nextId += 1
            state.viewers[id] = Viewer(filter: filter, startsAtSeq: startsAtSeq, closeLater: closeLater)
            let start = !state.readerRunning
            state.readerRunning = true
            return (id, start)
        }
        guard let id else {
            bridge.tap.viewerLeft(filter: filter)
            return .stopped
        }
        report()
        if startReader { startReading() }
        bridge.requestLanesSnapshot()
        return .viewer(ViewerLease(hub: self, id: id))
    }

    /// Ends every viewer's stream and stops the reader (the listener is shutting down).
    func close() {
        let viewers = state.withLock { state -> [Viewer] in
            state.closed = true
            state.bufferedBytes = 0
            defer { state.viewers.removeAll() }
            return Array(state.viewers.values)
        }
        for viewer in viewers {
            if !viewer.dropped { bridge.tap.viewerLeft(filter: viewer.filter) }
            viewer.waiter?.resume(returning: nil)
            viewer.closeLater()
        }
        report()
    }

    /// Viewer `id`'s next write, waiting for one; nil once its stream ends (dropped and its last comment
    /// taken, gone, the hub closed, or the task cancelled).
    func next(_ id: Int) async -> ByteBuffer? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ByteBuffer?, Never>) in
                let answer = state.withLock { state -> ByteBuffer?? in
                    guard var viewer = state.viewers[id] else { return .some(nil) }
                    defer { state.viewers[id] = viewer }
                    if let first = viewer.queue.popFirst() {
                        viewer.lastTaken = .now()
                        viewer.queuedBytes -= first.readableBytes
                        state.bufferedBytes -= first.readableBytes
                        return .some(first)
                    }
                    if viewer.dropped || Task.isCancelled { return .some(nil) }
                    viewer.waiter = continuation
                    return .none
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<ByteBuffer?, Never>? in
                defer { state.viewers[id]?.waiter = nil }
                return state.viewers[id]?.waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    /// Forgets viewer `id` (its connection's answer ended), freeing what waited for it.
    func remove(_ id: Int) {
        guard
            let removed = state.withLock({ state -> Viewer? in
                guard let viewer = state.viewers.removeValue(forKey: id) else { return nil }
                state.bufferedBytes -= viewer.queuedBytes
                return viewer
            })
        else { return }
        removed.waiter?.resume(returning: nil)
        if !removed.dropped { bridge.tap.viewerLeft(filter: removed.filter) }
        report()
        if removed.queuedBytes >= Memory.trimAfterBytes { Memory.giveBack() }
    }

    /// The viewers and their waiting bytes, in `/metrics`.
    private func report() {
        let (count, bytes) = state.withLock { ($0.following, $0.bufferedBytes) }
        metrics.setViewers(count, bufferedBytes: bytes)
    }

    /// Hands `buffer` to viewer `id`: to its waiting writer, else into its queue (its oldest write goes
    /// past ``HTTPLimits/viewerWrites``). Called with the lock held; the caller enforces the total.
    private static func deliver(_ buffer: ByteBuffer, to id: Int, in state: inout State, writes: Int) {
        guard var viewer = state.viewers[id], !viewer.dropped else { return }
        defer { state.viewers[id] = viewer }
        if let waiter = viewer.waiter {
            viewer.waiter = nil
            viewer.lastTaken = .now()
            waiter.resume(returning: buffer)
            return
        }
        viewer.queue.append(buffer)
        viewer.queuedBytes += buffer.readableBytes
        state.bufferedBytes += buffer.readableBytes
        if viewer.queue.count > writes, let oldest = viewer.queue.popFirst() {
            viewer.queuedBytes -= oldest.readableBytes
            state.bufferedBytes -= oldest.readableBytes
        }
    }

    /// Drops the slowest viewers until the total is within ``HTTPLimits/maxViewerBytes``: of those with
    /// writes waiting, the one whose connection went longest without taking one (the most waiting, of
    /// two alike). Each one's queue is freed and replaced by a comment saying why. Called with the lock held.
    private static func enforceTotal(in state: inout State, limits: HTTPLimits) -> [Drop] {
        var drops: [Drop] = []
        while state.bufferedBytes > limits.maxViewerBytes,
            let slowest = state.viewers.filter({ !$0.value.dropped && $0.value.queuedBytes > 0 }).min(by: {
                ($0.value.lastTaken.uptimeNanoseconds, -$0.value.queuedBytes)
                    < ($1.value.lastTaken.uptimeNanoseconds, -$1.value.queuedBytes)
            })
        {
            var viewer = slowest.value
            state.bufferedBytes -= viewer.queuedBytes
            drops.append(Drop(filter: viewer.filter, waiting: viewer.queuedBytes, closeLater: viewer.closeLater))
            let comment = ByteBuffer(
                string: ": dropped: this viewer read too slowly (\(viewer.queuedBytes) bytes were waiting for it; "
                    + "the listener keeps at most \(limits.maxViewerBytes) for all viewers); "
                    + "reconnect for a new snapshot\n\n")
            viewer.queue = []
            viewer.queuedBytes = 0
            viewer.dropped = true
            if let waiter = viewer.waiter {
                viewer.waiter = nil
                waiter.resume(returning: comment)
            } else {
                viewer.queue.append(comment)
                viewer.queuedBytes = comment.readableBytes
                state.bufferedBytes += comment.readableBytes
            }
            state.viewers[slowest.key] = viewer
        }
        return drops
    }

    /// Tells the tap, the log, the metrics and each dropped viewer's connection; gives the memory back.
    private func settle(_ drops: [Drop]) {
        guard !drops.isEmpty else { return }
        for drop in drops {
            bridge.tap.viewerLeft(filter: drop.filter)
            metrics.viewerDropped()
            logger.warning(
                "/events: a viewer was dropped: it read too slowly",
                metadata: ["waiting": "\(drop.waiting)", "limit": "\(limits.maxViewerBytes)"])
            drop.closeLater()
        }
        Memory.giveBack()
    }

    private func startReading() {
        // Named where `top -H` and `perf` show it (Foundation's `Thread.name` does not reach the kernel).
        _ = LoopThread.start(name: "http-events") { [self] in read() }
    }

    /// Reads the tap until the hub closes or the bridge's ZeroMQ context ends, then closes its socket
    /// (the bridge cannot finish stopping before it does). Attaches again whenever the bridge's loop bound the
    /// tap anew (``EventTap/binding``: a bridge on a shared journal that took the lease back), and then starts
    /// every viewer again from a new snapshot (``startViewersAgain()``).
    private func read() {
        var attached: (socket: Socket, poller: Poller, binding: Int)?
        defer {
            attached?.socket.close()
            close()
        }
        let snapshotTopic = Array(EventTap.snapshotTopic.utf8)
        while !state.withLock({ $0.closed }) {
            if attached?.binding != bridge.tap.binding {
                let again = attached != nil
                attached?.socket.close()
                attached = nil
                let binding = bridge.tap.binding
                do {
                    let socket = try bridge.makeTapSubscriber()
                    let poller = Poller()
                    poller.add(socket)
                    attached = (socket, poller, binding)
                } catch {
                    logger.error("the /events reader could not attach to the bridge", metadata: ["error": "\(error)"])
                    return
                }
                if again { startViewersAgain() }
            }
            guard let (socket, poller, _) = attached else { return }
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

    /// The bridge serves again (it took the journal's lease back): a new epoch, whose `seq` counts from the start,
    /// and lanes another bridge may have served meanwhile. Every viewer is told so in a comment and started
    /// again by a new snapshot, as a viewer that just came; until then it is sent nothing.
    private func startViewersAgain() {
        let comment = ByteBuffer(
            string: ": reset: the bridge serves again, under a new epoch; a new lanes snapshot follows\n\n")
        let writes = limits.viewerWrites
        let limits = limits
        let drops = state.withLock { state -> [Drop] in
            for (id, viewer) in state.viewers where !viewer.dropped {
                state.viewers[id]?.started = false
                state.viewers[id]?.startsAtSeq = 0
                state.viewers[id]?.askedAt = .now()
                Self.deliver(comment, to: id, in: &state, writes: writes)
            }
            return Self.enforceTotal(in: &state, limits: limits)
        }
        settle(drops)
        report()
        bridge.requestLanesSnapshot()
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
            ViewerBatches(filters: state.viewers.values.lazy.filter { $0.started && !$0.dropped }.map(\.filter))
        }
    }

    private func sendToStarted(_ batches: ViewerBatches) {
        guard let buffers = batches.buffers() else { return }
        let writes = limits.viewerWrites
        let limits = limits
        let drops = state.withLock { state -> [Drop] in
            for (id, viewer) in state.viewers where viewer.started {
                if let buffer = buffers[viewer.filter] { Self.deliver(buffer, to: id, in: &state, writes: writes) }
            }
            return Self.enforceTotal(in: &state, limits: limits)
        }
        settle(drops)
        report()
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
        let writes = limits.viewerWrites
        let limits = limits
        let drops = state.withLock { state -> [Drop] in
            for (id, viewer) in state.viewers where !viewer.started && viewer.startsAtSeq <= seq {
                guard let buffer = built[viewer.filter] else { continue }  // joined meanwhile: its own comes
                state.viewers[id]?.started = true
                Self.deliver(buffer, to: id, in: &state, writes: writes)
            }
            return Self.enforceTotal(in: &state, limits: limits)
        }
        settle(drops)
        report()
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

/// One `/events` viewer as its answer holds it: its writes, one by one; the hub forgets it when the
/// answer is done with it (written to the end, or dropped unwritten).
final class ViewerLease: Sendable {
    private let hub: EventHub
    private let id: Int

    init(hub: EventHub, id: Int) {
        self.hub = hub
        self.id = id
    }

    /// The next write; nil once the stream ends.
    func next() async -> ByteBuffer? { await hub.next(id) }

    deinit { hub.remove(id) }
}

/// Gives freed memory back to the system: glibc keeps what a burst of viewers' writes took, in its
/// arenas, after it is freed; `malloc_trim` returns it (looked up at run time: Swift's Glibc module does
/// not declare it, and a C library without it simply keeps its memory).
enum Memory {
    /// What a removed viewer must have had waiting for its removal to trim.
    static let trimAfterBytes = 1 << 20

    private typealias Trim = @convention(c) (Int) -> Int32
    private static let trim: Trim? = dlsym(nil, "malloc_trim").map {
        unsafeBitCast($0, to: Trim.self)
    }

    static func giveBack() { _ = trim?(0) }
}
