import Bridge
import BridgeClient
import Foundation
import InterApp
import Logging
import TerminalSimulator
import ZeroMQ

/// What carries the sales in one measured run.
enum Topology: Sendable, CustomStringConvertible {
    /// The bridge, with simulated terminals behind it (the product's own end to end).
    case bridgeWithSimulator(JournalSync)
    /// The same with the journal on PostgreSQL: `journal` is the database's URL (`postgresql://…`).
    case bridgeWithSimulatorOnPostgres(journal: String)
    /// The same with CURVE on every socket: load clients on the allow-list, relays with pinned keys.
    case bridgeWithSimulatorCurve(JournalSync)
    /// The same with the HTTP listener on; scraped every second and followed by 10 `/events` viewers in every
    /// other slice of the measured window (``AlternatingWindow``), not followed in the slices between. Each viewer
    /// reads every event, or with `laneEach` follows one lane of its own (`/events?topic=<lane>.`, a till's screen).
    case bridgeWithSimulatorAndHTTP(laneEach: Bool)
    /// The same with a subscriber to every event on the events socket (``EventSubscriber``) in every other
    /// slice of the measured window.
    case bridgeWithSimulatorAndSubscriber
    /// The bridge with simulated Android lanes (the other callback dialect), journal normal.
    case bridgeWithAndroidSimulator
    /// The bridge, with echo relays behind it: the bridge's own cost without the simulator's.
    case bridgeWithEcho(JournalSync)
    /// The raw relay with echo relays: the same frames with no bridge logic (the limit). The relay shares the
    /// benchmark's libzmq context (one I/O thread for both ends of every connection), as it always has: the
    /// baseline of the throughput and latency ratios.
    case raw
    /// The same with the raw relay on a libzmq context of its own, as the bridge has (and as a forwarder in a
    /// process of its own would): its I/O thread's CPU is its own, so its CPU a sale compares with the bridge's.
    case rawOwnContext

    var description: String {
        switch self {
        case .bridgeWithSimulator(let sync): "bridge + simulator, journal \(sync.rawValue)"
        case .bridgeWithSimulatorOnPostgres: "bridge + simulator, journal on PostgreSQL"
        case .bridgeWithSimulatorCurve(let sync): "bridge + simulator, CURVE on every socket, journal \(sync.rawValue)"
        case .bridgeWithSimulatorAndHTTP(let laneEach):
            "bridge + simulator + HTTP (a scrape a second, \(HTTPWatchers.viewers) /events viewers"
                + "\(laneEach ? " of one lane each" : ""), in alternate slices), journal normal"
        case .bridgeWithSimulatorAndSubscriber:
            "bridge + simulator + a subscriber to every event (SUB, tcp, in alternate slices), journal normal"
        case .bridgeWithAndroidSimulator: "bridge + simulator, Android lanes, journal normal"
        case .bridgeWithEcho(let sync): "bridge + echo relays, journal \(sync.rawValue)"
        case .raw: "raw relay + echo relays"
        case .rawOwnContext: "raw relay on its own libzmq context + echo relays"
        }
    }
}

/// The knobs of a measured run.
struct RunShape: Sendable {
    var lanes: Int
    var clients: Int
    var window: Int
    var warmupSeconds: Double
    var seconds: Double
    /// Total sales per second on a fixed schedule instead of closed loops.
    var pacedRate: Double?
    var encoding: CallbackEncoding
    var journalFolder: String
}

/// What a measured run produced.
struct RunMeasurement: Sendable {
    var salesPerSecond: Double
    var latency: LatencySummary
    var replies: Int
    var nonSuccess: Int
    var firstNonSuccess: String?
    var replyBytes: Int
    /// CPU seconds per thread group over the measured window.
    var cpu: [String: Double]
    /// Cores other processes on the machine kept busy during the measured window.
    var otherProcessesCores: Double?
    /// Cores the hypervisor took from this virtual machine (steal) during the measured window.
    var stealCores: Double
    var measuredSeconds: Double

    /// Sales completed in the measured window.
    var completed: Int
    /// What else the run saw, for the notes.
    var note: String?
    /// In a run that alternated (``AlternatingWindow``): the slices without what it measures. An array of at
    /// most one, as a measurement cannot hold one of its own kind otherwise.
    var baselines: [RunMeasurement] = []
    /// The first of ``baselines``.
    var baseline: RunMeasurement? {
        get { baselines.first }
        set { baselines = newValue.map { [$0] } ?? [] }
    }

    /// CPU a completed sale of the thread groups named (``ThreadCPU/bridgeGroups``, ...), in µs; or the groups
    /// that had no thread in the run (a thread not named as expected would otherwise count as nothing).
    func cpuPerSale(of groups: [String]) -> Result<Double, BenchError> {
        let missing = groups.filter { cpu[$0] == nil }
        guard missing.isEmpty else {
            return .failure(BenchError("no thread of \(missing.joined(separator: ", ")) in the run"))
        }
        return .success(groups.map { cpu[$0] ?? 0 }.reduce(0, +) / Double(max(1, completed)) * 1e6)
    }

    /// Where the CPU went during the measured window, per sale.
    func cpuNote(label: String) -> String {
        let sales = Double(max(1, completed))
        let total = cpu.values.reduce(0, +)
        let parts = cpu.sorted { $0.value > $1.value }.filter { $0.value > 0.001 }.map { name, seconds in
            "\(name) \(Format.micros(seconds / sales * 1e6))"
        }
        return "\(label): this process kept \(String(format: "%.2f", total / measuredSeconds)) cores busy, "
            + "other processes \(otherProcessesCores.map { String(format: "%.2f", $0) } ?? "unknown (no cgroup CPU count)"), "
            + "steal \(String(format: "%.2f", stealCores)); "
            + "\(Format.micros(total / sales * 1e6)) CPU per sale (\(parts.joined(separator: ", ")))"
    }
}

/// Starts a topology, drives it with the load clients, and tears it down.
enum TopologyRun {
    static func measure(_ topology: Topology, shape: RunShape, wire: Wire, replyBytes: Int) throws -> RunMeasurement {
        let context = try Context(ioThreads: 1, maxSockets: Int32(max(4096, shape.lanes * 4 + 64)))
        defer { context.terminate() }
        var teardown: [() -> Void] = []
        defer { for step in teardown.reversed() { step() } }

        let endpoint: String
        var curve: BenchCurve?
        var sliceClients: (any SliceClients)?
        switch topology {
        case .bridgeWithSimulator, .bridgeWithSimulatorOnPostgres, .bridgeWithSimulatorCurve,
            .bridgeWithSimulatorAndHTTP, .bridgeWithSimulatorAndSubscriber, .bridgeWithAndroidSimulator:
            let sync: JournalSync
            var journal: String?
            switch topology {
            case .bridgeWithSimulator(let chosen): sync = chosen
            case .bridgeWithSimulatorOnPostgres(let url):
                sync = .normal
                journal = url
            case .bridgeWithSimulatorCurve(let chosen):
                sync = chosen
                curve = try BenchCurve()
            default: sync = .normal
            }
            let android = if case .bridgeWithAndroidSimulator = topology { true } else { false }
            let lanes = (0..<shape.lanes).map {
                var lane = SimulatedLane(
                    id: Wire.laneId($0), platform: android ? .android : .ios,
                    behaviour: LaneBehaviour(encoding: shape.encoding))
                lane.curveSecretKey = curve?.relay.secretKey
                return lane
            }
            let simulator = Simulator(
                lanes: lanes, context: context, historyLimit: 16,
                allowedBridgeKeys: curve.map { [$0.bridge.publicKey] })
            teardown.append { simulator.stop() }
            let threads = ThreadCPU.threadIds()
            let endpoints = try simulator.start()
            ThreadCPU.label(threadsSince: threads, as: "simulator")
            let (bound, bridge) = try startBridge(
                lanes: (0..<shape.lanes).map { endpoints[Wire.laneId($0)]! }, sync: sync, folder: shape.journalFolder,
                journal: journal, platform: android ? .android : .ios, curve: curve, teardown: &teardown)
            endpoint = bound.command
            switch topology {
            case .bridgeWithSimulatorAndHTTP(let laneEach):
                let threads = ThreadCPU.threadIds()
                let started = try HTTPWatchers(
                    bridge: bridge, viewerPath: { laneEach ? "/events?topic=\(Wire.laneId($0))." : "/events" })
                ThreadCPU.label(threadsSince: threads, as: "http")
                teardown.append { _ = started.stop() }
                sliceClients = started
            case .bridgeWithSimulatorAndSubscriber:
                let subscriber = EventSubscriber(context: context, endpoint: bound.events)
                teardown.append { subscriber.detach() }
                sliceClients = subscriber
            default: break
            }
            for lane in 0..<shape.lanes where !simulator.waitForHello(lane: Wire.laneId(lane), timeout: .seconds(30)) {
                throw BenchError("lane \(Wire.laneId(lane)) never connected to the bridge")
            }
            guard bridge.awaitLanesUp(timeout: .seconds(30)) else {
                throw BenchError("not every relay answered the bridge's hello")
            }
        case .bridgeWithEcho(let sync):
            let echo = try EchoRelay(context: context, lanes: shape.lanes, wire: wire)
            teardown.append { echo.stopAndJoin() }
            let (bound, bridge) = try startBridge(
                lanes: echo.endpoints, sync: sync, folder: shape.journalFolder, teardown: &teardown)
            endpoint = bound.command
            guard echo.readiness.waitForAll(timeoutSeconds: 30) else {
                throw BenchError("not every echo relay heard the bridge's hello")
            }
            guard bridge.awaitLanesUp(timeout: .seconds(30)) else {
                throw BenchError("not every echo relay's answer to hello reached the bridge")
            }
        case .raw, .rawOwnContext:
            let echo = try EchoRelay(context: context, lanes: shape.lanes, wire: wire)
            teardown.append { echo.stopAndJoin() }
            let ownContext: Bool = if case .rawOwnContext = topology { true } else { false }
            let raw = try RawRelay(
                context: ownContext ? nil : context, relayEndpoints: echo.endpoints, wire: wire, replyBytes: replyBytes)
            teardown.append { raw.stopAndJoin() }
            endpoint = raw.commandEndpoint
            guard echo.readiness.waitForAll(timeoutSeconds: 30) else {
                throw BenchError("not every echo relay heard the raw relay's hello")
            }
        }
        var measurement = try drive(
            endpoint: endpoint, context: context, shape: shape, curve: curve.map(\.client), alternating: sliceClients)
        if let sliceClients { measurement.note = sliceClients.finish() }
        return measurement
    }

    /// Starts an in-process bridge on `lanes` (relay endpoints); returns its bound endpoints and the bridge. Its
    /// journal is a new SQLite file in `folder`, or `journal` (a PostgreSQL URL) when given.
    static func startBridge(
        lanes: [String], sync: JournalSync, folder: String, journal postgres: String? = nil, platform: Platform = .ios,
        curve: BenchCurve? = nil, teardown: inout [() -> Void]
    ) throws -> (bound: BoundEndpoints, bridge: Bridge) {
        // A folder per bridge, removed whole: nothing of the journal can outlive the run.
        let runFolder = (folder as NSString).appendingPathComponent("bench-e2e-\(UUID().uuidString)")
        let journal = (runFolder as NSString).appendingPathComponent("journal.sqlite")
        var configuration = BridgeConfiguration()
        configuration.command = "tcp://127.0.0.1:*"
        configuration.events = "tcp://127.0.0.1:*"
        configuration.journal = postgres ?? journal
        configuration.journalSync = sync
        configuration.terminal.merchantKey = Wire.merchantKey
        configuration.terminal.appId = Wire.settings.appId
        configuration.lanes = lanes.enumerated().map { index, endpoint in
            var lane = LaneConfiguration(
                id: Wire.laneId(index), endpoint: endpoint, platform: platform, terminal: configuration.terminal)
            lane.relayPublicKey = curve?.relay.publicKey
            return lane
        }
        configuration.security = curve?.security
        var logger = Logger(label: "vivabridge.bench") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .error
        let threads = ThreadCPU.threadIds()
        let bridge = try Bridge(configuration: configuration, logger: logger)
        let bound = try bridge.start()
        ThreadCPU.label(libzmqThreadsSince: threads, as: ThreadCPU.bridgeIOThread)
        ThreadCPU.label(threadsSince: threads, as: "bridge-loop")
        teardown.append {
            bridge.halt()
            try? FileManager.default.removeItem(atPath: runFolder)
        }
        return (bound, bridge)
    }

    /// Runs the load clients against `endpoint` for the warm-up and the measured window. With `alternating`,
    /// the window is cut into ``AlternatingWindow`` slices, those clients attached in every other one: the
    /// measurement is of the slices with them, its ``RunMeasurement/baseline`` of those without.
    static func drive(
        endpoint: String, context: Context, shape: RunShape, curve: ClientCurve? = nil,
        alternating watchers: (any SliceClients)? = nil
    ) throws -> RunMeasurement {
        let start = Monotonic.now()
        let measureFrom = start + UInt64(shape.warmupSeconds * 1e9)
        let end = measureFrom + UInt64(shape.seconds * 1e9)
        let clients = max(1, min(shape.clients, shape.lanes))
        var workers: [Worker<LoadResult>] = []
        // Counted as they complete only where slices need it (one atomic for every client otherwise).
        let completions = watchers.map { _ in SharedCounter() }
        for client in 0..<clients {
            let lanes = Array(stride(from: client, to: shape.lanes, by: clients))
            let plan = LoadPlan(
                endpoint: endpoint, client: client, lanes: lanes, window: shape.window,
                ratePerSecond: shape.pacedRate.map { $0 / Double(clients) }, measureFromNs: measureFrom, endNs: end,
                counter: completions, curve: curve)
            workers.append(LoadClient.start(context: context, plan: plan))
        }
        // CPU is read at the edges of the measured window (or of each slice), while every thread is still there.
        Monotonic.sleep(until: measureFrom)
        let windowEnd = end - min(UInt64(20_000_000), (end - measureFrom) / 10)
        let measured: WindowTally
        var baseline: WindowTally?
        if let watchers, let completions {
            let halves = AlternatingWindow(from: measureFrom, to: windowEnd, seconds: shape.seconds)
                .run(completions: completions, off: { watchers.detach() }, on: { watchers.attach() })
            (measured, baseline) = (halves.on, halves.off)
        } else {
            var window = WindowTally()
            let opened = WindowTally.now(completions: nil)
            Monotonic.sleep(until: windowEnd)
            window.add(from: opened, to: WindowTally.now(completions: nil))
            measured = window
        }
        let results = workers.map { $0.join() }
        if let error = results.compactMap(\.error).first { throw BenchError(error) }
        guard let baseline else {
            return measured.measurement(
                results, completed: results.map(\.completedInWindow).reduce(0, +), perSecondOver: shape.seconds)
        }
        var measurement = measured.measurement(results)
        measurement.baseline = baseline.measurement(results)
        return measurement
    }
}
