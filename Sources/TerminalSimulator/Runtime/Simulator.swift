import Foundation
import Logging
import Synchronization
import ZeroMQ

/// A set of simulated Viva Terminal lanes, each a relay bound at its endpoint with an app behind it, that
/// behave like the real apps on the terminal link (PROTOCOL.md §5) in both dialects.
///
/// One dedicated thread owns every socket and runs a poll loop; the methods below may be called from any
/// thread. Control calls (``release(lane:)``, ``setBehaviour(_:lane:)``, ``dropLink(lane:)``…) run on that
/// loop and return once done; the `waitFor…` methods block on a condition variable the loop signals.
///
/// ```swift
/// let simulator = Simulator(lanes: [SimulatedLane(id: "lane-1", platform: .ios)])
/// let endpoints = try simulator.start()      // ["lane-1": "tcp://127.0.0.1:41234"]
/// defer { simulator.stop() }
/// ```
public final class Simulator: Sendable {
    /// The app name the relays report in their `hello`.
    public static let appName = "Viva Terminal (simulated)"
    /// The app version the relays report in their `hello`.
    public static let appVersion = "1.0.0-sim"

    private let lanes: [SimulatedLane]
    private let givenContext: Context?
    private let clock: any SimulatorClock
    private let seed: UInt64
    private let logger: Logger
    private let dates: TransactionDateFormat
    private let historyLimit: Int
    private let requestObserver: RequestObserver?
    private let allowedBridgeKeys: Set<String>?
    private let ledger: CloudLedger?
    private let monitor: SimulatorMonitor
    private let jobs = LoopJobQueue()
    private let state: Mutex<LifeState>

    /// Creates a simulator; nothing is bound before ``start()``.
    ///
    /// - Parameters:
    ///   - lanes: the lanes, with unique ids.
    ///   - context: the ZeroMQ context to use; nil makes (and terminates) one of its own.
    ///   - clock: the wall clock for transaction dates and batch ages.
    ///   - seed: the seed of every generated number; the same seed, clock and requests give the same callbacks.
    ///   - logger: where to log; nil logs nothing.
    ///   - utcOffsetMinutes: the offset written in transaction dates (default +02:00, Athens in winter).
    ///   - historyLimit: how many transactions and opened URLs each lane keeps (at least) for look-ups and
    ///     assertions; older ones are dropped, so that long benchmarks run in bounded memory.
    ///   - requestObserver: called on the loop thread with every `open` request a relay receives, before the
    ///     relay answers it (for example `simulate --record`); it must not block for long.
    ///   - allowedBridgeKeys: the CURVE public keys (Z85) of the bridges the CURVE relays admit (`simulate
    ///     --allow-key`); a bridge with another key never gets a connection. Nil admits any bridge that knows
    ///     the relay's public key. Only lanes with a ``SimulatedLane/curveSecretKey`` authenticate.
    ///   - ledger: the simulated back office's ledger (``CloudLedger``), where every sale or
    ///     pre-authorisation that reaches the host is recorded with its `clientTransactionId` as
    ///     `merchantTrns`, so that Viva's look-ups find it; nil records nothing.
    public init(
        lanes: [SimulatedLane], context: Context? = nil, clock: any SimulatorClock = SystemSimulatorClock(),
        seed: UInt64 = 1, logger: Logger? = nil, utcOffsetMinutes: Int = 120, historyLimit: Int = 10_000,
        requestObserver: RequestObserver? = nil, allowedBridgeKeys: Set<String>? = nil, ledger: CloudLedger? = nil
    ) {
        self.lanes = lanes
        self.givenContext = context
        self.clock = clock
        self.seed = seed
        self.logger = logger ?? Logger(label: "vivabridge.simulator", factory: { _ in SwiftLogNoOpLogHandler() })
        self.dates = TransactionDateFormat(offsetMinutes: utcOffsetMinutes)
        self.historyLimit = historyLimit
        self.requestObserver = requestObserver
        self.allowedBridgeKeys = allowedBridgeKeys
        self.ledger = ledger
        self.monitor = SimulatorMonitor(laneIds: lanes.map(\.id), historyLimit: historyLimit, urlLimit: historyLimit)
        var life = LifeState()
        for lane in lanes { life.behaviours[lane.id] = lane.behaviour }
        self.state = Mutex(life)
    }

    deinit { stop() }

    // MARK: - Life

    /// Binds every lane and starts the loop thread; returns lane id → bound endpoint (real port).
    ///
    /// Calling it again while running returns the same endpoints.
    @discardableResult
    public func start() throws -> [String: String] {
        try self.state.withLock { state throws -> [String: String] in
            if state.stopped { throw SimulatorError(.stopped, "a stopped simulator cannot start again") }
            if let endpoints = state.endpoints { return endpoints }
            if Set(lanes.map(\.id)).count != lanes.count {
                throw SimulatorError(.duplicateLane, "lane ids must be unique: \(lanes.map(\.id))")
            }
            let context: Context
            do {
                context = try givenContext ?? Context()
                try jobs.open(context: context)
                // The handler must answer before a CURVE relay accepts its first connection.
                if let allowedBridgeKeys {
                    state.zap = try ZAPHandler(context: context, allowedPublicKeys: allowedBridgeKeys)
                }
            } catch {
                throw SimulatorError(.bindFailed, "\(error)")
            }
            var configured = lanes
            for index in configured.indices {
                configured[index].behaviour = state.behaviours[configured[index].id] ?? configured[index].behaviour
            }
            let configuration = LoopConfiguration(
                lanes: configured, context: context, jobs: jobs, monitor: monitor, clock: clock, seed: seed,
                dates: dates, historyLimit: historyLimit, logger: logger, requestObserver: requestObserver,
                ledger: ledger)
            do throws(SimulatorError) {
                let (thread, endpoints) = try LoopThread.start(name: "vivabridge-simulator") {
                    () throws(SimulatorError) -> (loop: SimulatorLoop, report: [String: String]) in
                    let loop: SimulatorLoop
                    do {
                        loop = try SimulatorLoop(configuration)
                    } catch {
                        throw SimulatorError(.bindFailed, "the simulator's poller: \(error)")
                    }
                    do {
                        return (loop, try loop.bind())
                    } catch {
                        loop.shutdown()
                        throw SimulatorError(.bindFailed, "\(error)")
                    }
                } run: { loop in
                    loop.run()
                }
                state.endpoints = endpoints
                state.thread = thread
                state.ownedContext = givenContext == nil ? context : nil
                return endpoints
            } catch {
                jobs.close()
                state.zap?.stop()
                state.stopped = true
                if givenContext == nil { context.terminate() }
                throw error
            }
        }
    }

    /// Stops the loop, joins its thread and closes every socket (and its own context). Idempotent.
    public func stop() {
        let (thread, context, zap) = self.state.withLock { state -> (LoopThread?, Context?, ZAPHandler?) in
            guard !state.stopped else { return (nil, nil, nil) }
            state.stopped = true
            return (state.thread, state.ownedContext, state.zap)
        }
        guard let thread else {
            jobs.close()
            zap?.stop()
            return
        }
        _ = jobs.post(LoopJob(run: { $0.running = false }, cancel: {}))
        thread.join()
        jobs.close()
        zap?.stop()
        context?.terminate()
    }

    /// Runs `body` on the loop thread and returns its result; nil when the simulator is not running.
    func perform<T: Sendable>(_ body: @escaping @Sendable (SimulatorLoop) -> T) -> T? {
        let box = ResultBox<T>()
        let job = LoopJob(
            run: { loop in
                let value = body(loop)
                loop.flush()
                box.fulfil(value)
            }, cancel: { box.fulfil(nil) })
        guard jobs.post(job) else { return nil }
        return box.wait()
    }

    /// Runs `body` on the loop thread with lane `id`'s index; nil when not running or the lane is unknown.
    func perform<T: Sendable>(lane id: String, _ body: @escaping @Sendable (SimulatorLoop, Int) -> T) -> T? {
        guard let lane = monitor.laneIndex(id) else { return nil }
        return perform { body($0, lane) }
    }

    var observations: SimulatorMonitor { monitor }

    func clockNow() -> Date { clock.now() }

    func updateConfiguredBehaviour(_ behaviour: LaneBehaviour, lane: String) {
        state.withLock { state in
            if state.behaviours[lane] != nil { state.behaviours[lane] = behaviour }
        }
    }

    /// Life-cycle state, behind the simulator's mutex.
    struct LifeState {
        var endpoints: [String: String]?
        /// The loop's thread, once it bound every lane.
        var thread: LoopThread?
        var ownedContext: Context?
        /// Admits only the allowed bridges on the CURVE relays; nil when any bridge may connect.
        var zap: ZAPHandler?
        var stopped = false
        var behaviours: [String: LaneBehaviour] = [:]
    }
}
