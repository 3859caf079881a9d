import BridgeCore
import BridgeJournal
import Foundation
import Logging
import Synchronization
import ZeroMQ

/// The bridge: command intake, terminal links, correlation, journal and events, on a thread of its own.
///
/// ```swift
/// let bridge = Bridge(configuration: configuration, logger: logger)
/// let endpoints = try bridge.start()
/// // ...
/// bridge.stop()   // graceful: waits for commands in flight up to `shutdownGraceMs`
/// ```
public final class Bridge: Sendable {
    /// The configuration the bridge runs on.
    public let configuration: BridgeConfiguration
    private let clock: any BridgeClock
    let logger: Logger
    private let context: Context
    private let control: ControlChannel
    private let state = StartState()
    private let pulse = LoopPulse()
    private let laneReloads = LaneReloads()
    /// Admits CURVE clients by the allow-list; nil without `security`. Started before any socket binds.
    private let zap: ZAPHandler?
    /// The bridge's Prometheus metrics (`/metrics`).
    public let metrics: BridgeMetrics
    /// Its phase, epoch and lane links, as the loop last published them (`/readyz`).
    public let live: LiveState
    /// The events the loop built, for in-process readers (`/events`); see ``makeTapSubscriber()``.
    public let tap = EventTap()

    /// Prepares a bridge; nothing is bound until ``start()``.
    public init(configuration: BridgeConfiguration, clock: any BridgeClock = SystemBridgeClock(), logger: Logger)
        throws
    {
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        context = try Context(ioThreads: Self.ioThreads(lanes: configuration.lanes.count), maxSockets: 1024)
        control = ControlChannel()
        let metrics = BridgeMetrics(lanes: configuration.lanes.map { ($0.id, $0.transport.kind) })
        self.metrics = metrics
        live = LiveState(
            laneIds: configuration.lanes.map(\.id), instance: configuration.instanceName,
            role: configuration.journalIsShared ? .standby : .active)
        zap = try BridgeLoop.startZAP(
            configuration.security, context: context, logger: logger,
            onRefused: { metrics.clientsRefused.increment() })
    }

    /// The lanes one ZeroMQ I/O thread serves at most before the bridge starts another (up to
    /// ``maxIOThreads``): libzmq cancels a connection's heartbeat timer by walking every timer of its I/O
    /// thread, so a heartbeat costs in proportion to the links of its thread (docs/PERFORMANCE.md, "Many lanes").
    static let lanesPerIOThread = 1250
    static let maxIOThreads = 8

    /// ZeroMQ I/O threads for `lanes` lanes at start: one for up to ``lanesPerIOThread``, then one more for each
    /// such share; a reload that adds lanes keeps the count the start chose.
    static func ioThreads(lanes: Int) -> Int32 {
        Int32(min(maxIOThreads, max(1, (lanes + lanesPerIOThread - 1) / lanesPerIOThread)))
    }

    /// Replaces the client allow-list (a SIGHUP reload): a removed client is refused from its next
    /// connection on. False, and nothing changes, without `security`.
    @discardableResult
    public func replaceClients(_ clients: [SecuritySettings.Client]) -> Bool {
        guard let zap else { return false }
        zap.replaceClients(BridgeLoop.zapClients(clients))
        return true
    }

    /// Takes the lanes of a reloaded configuration (a SIGHUP), on the bridge's loop: lanes added are
    /// linked at once; lanes removed take no new command and lanes changed only aborts, and either keeps
    /// its link until what is in flight on it ends; then it is closed (and a changed lane's made anew).
    /// Returns at once; each change is logged at notice and published as a `<lane>.lane.<event>`.
    public func reloadLanes(_ lanes: [LaneConfiguration]) {
        laneReloads.put(lanes)
        control.send(.reloadLanes)
    }

    /// Binds every endpoint, connects every lane, and starts the bridge's thread.
    ///
    /// - Returns: where the bridge listens (real ports for `*` endpoints).
    /// - Throws: a ``ZMQError`` when an endpoint cannot be bound, or a journal error.
    @discardableResult
    public func start() throws -> BoundEndpoints { try start(leaseEpoch: nil) }

    /// ``start()`` as the holder of a PostgreSQL journal's lease of `leaseEpoch` (``BridgeService``): the
    /// journal is opened now, every commit is fenced by the lease, and the lease's epoch is the bridge's. A
    /// bridge whose loop ended (``waitForLoop()``) may be started again this way.
    func start(leaseEpoch: Int?) throws -> BoundEndpoints {
        let configuration = configuration
        let clock = clock
        let logger = logger
        let context = context
        let endpoint = control.renew()
        let state = state
        state.markStarting()
        let pulse = pulse
        let laneReloads = laneReloads
        let zap = zap
        let observation = Observation(metrics: metrics, live: live, tap: tap)
        let (thread, bound) = try LoopThread.start(name: "vivabridge") {
            () throws -> (loop: BridgeLoop, report: BoundEndpoints) in
            let loop = try BridgeLoop(
                context: context, configuration: configuration, controlEndpoint: endpoint, clock: clock,
                logger: logger, pulse: pulse, laneReloads: laneReloads, zap: zap, observation: observation,
                leaseEpoch: leaseEpoch)
            return (loop, loop.bound)
        } run: { loop in
            do {
                try loop.run()
            } catch {
                logger.critical("bridge loop failed", metadata: ["error": "\(error)"])
                state.recordFailure(error)
            }
        }
        try control.connect(context)
        state.markStarted(thread)
        return bound
    }

    /// Waits until each of `lanes` (every configured lane when nil) is up: connected, and its relay answered
    /// the bridge's `hello`. Until then a command for the lane ends `undeliverable`, so a test rig, the
    /// benchmark or the demo waits here before it sends. Blocks the calling thread.
    ///
    /// - Returns: whether they all were up within `timeout`.
    public func awaitLanesUp(_ lanes: [String]? = nil, timeout: Duration) -> Bool {
        live.awaitLanesUp(lanes, timeout: timeout)
    }

    /// Starts a graceful shutdown: new commands are refused `shutting_down`, commands in flight get
    /// up to `shutdownGraceMs` to finish. Returns at once; see ``wait()``.
    public func shutdown() { control.send(.shutdown) }

    /// Makes the bridge check its timers now (after a ``ManualBridgeClock`` moved).
    public func wake() { control.send(.wake) }

    /// Waits until the bridge's thread has ended.
    public func wait() {
        waitForLoop()
        finish()
    }

    /// Waits until the loop's thread has ended, keeping what the bridge keeps across activations (its ZeroMQ
    /// context with the event tap, and ZAP): ``start(leaseEpoch:)`` may follow.
    func waitForLoop() {
        guard let thread = state.claimWait() else { return }
        thread.join()
        control.close()
    }

    /// Ends what the bridge keeps across activations, once its loop ended for good.
    func finish() {
        guard state.claimFinish() else { return }
        zap?.stop()
        context.terminate()
    }

    /// ``waitForLoop()``, off Swift's cooperative pool.
    func waitForLoopAsync() async {
        await OffPool.run { self.waitForLoop() }
    }

    /// Waits, off Swift's cooperative pool, until the bridge's thread has ended.
    public func waitAsync() async {
        await OffPool.run { self.wait() }
    }

    /// Shuts down gracefully and waits.
    public func stop() {
        shutdown()
        wait()
    }

    /// Stops at once, leaving commands in flight in the journal (as a crash would, but cleanly).
    public func halt() {
        requestHalt()
        wait()
    }

    /// Asks the bridge to stop at once, without waiting (safe from a cancellation handler); see ``halt()``.
    public func requestHalt() { control.send(.stop) }

    /// Whether the bridge's loop is alive: it turned within the last `milliseconds` (it turns at least
    /// once a second, idle or not; a standby's wait for the lease turns every 250 ms). False before it
    /// starts and after it ends. For a watchdog.
    public func isResponsive(withinMilliseconds milliseconds: Int) -> Bool {
        pulse.turned(withinMilliseconds: milliseconds)
    }

    /// Asks the loop for a `lanes` snapshot on the tap (``EventTap``), in order with the events.
    public func requestLanesSnapshot() { control.send(.snapshot) }

    /// A SUB socket on the tap, in the bridge's ZeroMQ context, subscribed to everything. Close it before
    /// ``wait()`` returns: the context ends only once every socket in it is closed (a blocked call on it
    /// fails with `ETERM` meanwhile).
    public func makeTapSubscriber() throws -> Socket {
        let socket = try Socket(context, .sub)
        try socket.subscribe("")
        try socket.connect(tap.endpoint)
        return socket
    }

    /// Waits as standby: `/readyz` says so, `vivabridge_active` is 0.
    func enterStandby() {
        live.set(role: .standby)
        live.set(.starting)
        metrics.active.record(0)
    }

    /// A standby's wait for the lease turned: it counts as the loop's turn (``isResponsive(withinMilliseconds:)``),
    /// so that `/healthz` and the systemd watchdog see a live standby as alive.
    func standbyTurned() { pulse.beat() }

    /// A standby stopped waiting for good (a shutdown): it no longer counts as turning, and has stopped.
    func standbyEnded() {
        pulse.end()
        live.set(.stopped)
    }

    /// The error that ended the bridge's loop, if it failed.
    public var failure: (any Error)? { state.failure() }
}

/// The caller's end of the inproc channel into the bridge's loop, safe to use from any thread.
private final class ControlChannel: Sendable {
    /// The PAIR socket, used only under the mutex: any thread may send on it; and the endpoint of the loop's.
    private let socket = Mutex<(socket: Socket?, endpoint: String)>((nil, ""))

    /// A new endpoint for the loop about to start (each start has its own: the last loop's may still close).
    func renew() -> String {
        let endpoint = "inproc://vivabridge-control-\(UUID().uuidString)"
        socket.withLock { $0.endpoint = endpoint }
        return endpoint
    }

    func connect(_ context: Context) throws {
        try socket.withLock { channel in
            let connected = try Socket(context, .pair)
            try connected.connect(channel.endpoint)
            channel.socket = connected
        }
    }

    func send(_ word: ControlWord) {
        socket.withLock { _ = try? $0.socket?.send([word.frame], wait: false) }
    }

    func close() {
        socket.withLock {
            $0.socket?.close()
            $0.socket = nil
        }
    }
}

private final class StartState: Sendable {
    private struct Flags {
        /// The loop's thread, once it started.
        var thread: LoopThread?
        var waited = false
        var finished = false
        var error: (any Error)?
    }
    private let flags = Mutex(Flags())
    /// A new activation: the last one's thread was waited for (or none ran), its failure forgotten.
    func markStarting() {
        flags.withLock {
            $0.thread = nil
            $0.waited = false
            $0.error = nil
        }
    }
    func markStarted(_ thread: LoopThread) { flags.withLock { $0.thread = thread } }
    /// True for the one caller that ends the bridge for good.
    func claimFinish() -> Bool {
        flags.withLock {
            guard !$0.finished else { return false }
            $0.finished = true
            return true
        }
    }
    /// The thread to join, for the one caller that waits first; nil before a start and for later callers.
    func claimWait() -> LoopThread? {
        flags.withLock {
            guard let thread = $0.thread, !$0.waited else { return nil }
            $0.waited = true
            return thread
        }
    }
    func recordFailure(_ error: any Error) { flags.withLock { $0.error = error } }
    func failure() -> (any Error)? { flags.withLock { $0.error } }
}
