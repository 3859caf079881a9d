import Foundation
import InterApp
import Logging
import ZeroMQ

/// Everything the loop thread needs, handed over when it starts.
struct LoopConfiguration: Sendable {
    var lanes: [SimulatedLane]
    var context: Context
    var jobs: LoopJobQueue
    var monitor: SimulatorMonitor
    var clock: any SimulatorClock
    var seed: UInt64
    var dates: TransactionDateFormat
    var historyLimit: Int
    var logger: Logger
    var requestObserver: RequestObserver? = nil
    /// Where transactions that reached the host are recorded for the simulated back office, if anywhere.
    var ledger: CloudLedger? = nil
}

/// The simulator's one thread: a poll loop that owns every lane socket and the simulated apps.
///
/// Each turn it waits on the lane sockets and the job queue's wake-up socket for at most the time to the next scheduled
/// action, handles what arrived, fires what is due, then publishes the turn's changes to the monitor. The
/// wait is a ``ReadyPoller`` (epoll), as the bridge's loop: a turn costs by the lanes that have something,
/// not by every lane (`zmq_poll` over 64 lanes was 30% of this thread's time under load).
final class SimulatorLoop {
    enum TimerEvent {
        case phase(lane: Int, token: UInt64)
        case send(lane: Int, generation: UInt64, message: RelayMessage)
        case rebind(lane: Int, attempt: Int)
    }

    let apps: [TerminalApp]
    let links: [LaneLink]
    var running = true

    private let context: Context
    private let jobs: LoopJobQueue
    private let monitor: SimulatorMonitor
    private let logger: Logger
    private let requestObserver: RequestObserver?
    private let ledger: CloudLedger?
    private var timers = TimerQueue<TimerEvent>()
    private var deltas: [LaneDelta]
    private var dirty: [Int] = []
    private var dirtyFlags: [Bool]
    private var wake: Socket?
    private let poller: ReadyPoller
    /// The lane of each socket the poller watches.
    private var laneOfSocket: [ObjectIdentifier: Int] = [:]

    /// How many messages one lane may hand in per turn, so that a busy lane cannot starve the others.
    private static let messagesPerTurn = 256

    init(_ configuration: LoopConfiguration) throws {
        poller = try ReadyPoller()
        context = configuration.context
        jobs = configuration.jobs
        monitor = configuration.monitor
        logger = configuration.logger
        requestObserver = configuration.requestObserver
        ledger = configuration.ledger
        apps = configuration.lanes.map {
            TerminalApp(
                lane: $0.id, platform: $0.platform, behaviour: $0.behaviour, seed: configuration.seed,
                clock: configuration.clock, dates: configuration.dates, historyLimit: configuration.historyLimit,
                logger: configuration.logger)
        }
        links = configuration.lanes.map {
            LaneLink(
                id: $0.id, kind: $0.socket, endpoint: $0.endpoint, curveSecretKey: $0.curveSecretKey,
                logger: configuration.logger)
        }
        deltas = Array(repeating: LaneDelta(), count: configuration.lanes.count)
        dirtyFlags = Array(repeating: false, count: configuration.lanes.count)
    }

    // MARK: - Life

    /// Binds the wake-up socket of ``LoopJobQueue`` and every lane; returns lane id → bound endpoint.
    func bind() throws -> [String: String] {
        let wake = try Socket(context, .pull)
        try wake.bind(jobs.endpoint)
        try poller.register(wake)
        self.wake = wake
        var endpoints: [String: String] = [:]
        for (lane, link) in links.enumerated() {
            try link.open(context: context)
            try watch(lane)
            endpoints[link.id] = link.boundEndpoint
            publish(lane) { $0.endpoint = link.boundEndpoint }
            publish(lane) { $0.linkUp = true }
        }
        flush()
        return endpoints
    }

    /// Runs until ``running`` turns false, then closes every socket.
    func run() {
        while running {
            turn()
        }
        shutdown()
    }

    /// Closes every socket and refuses further jobs.
    func shutdown() {
        jobs.close()
        for (lane, link) in links.enumerated() where link.isUp {
            unwatch(lane)
            link.close()
            publish(lane) { $0.linkUp = false }
        }
        poller.close()
        wake?.close()
        wake = nil
        flush()
    }

    private func turn() {
        let timeout = timers.pollTimeout(now: MonotonicClock.nanoseconds())
        let ready: [Socket]
        do {
            ready = try poller.wait(timeoutMilliseconds: timeout)
        } catch {
            logger.error("poll failed, simulator stops", metadata: ["error": "\(error)"])
            running = false
            return
        }
        var jobsReady = false
        var lanesReady: [Int] = []
        for socket in ready {
            if socket === wake {
                jobsReady = true
            } else if let lane = laneOfSocket[ObjectIdentifier(socket)] {
                lanesReady.append(lane)
            }
        }
        if jobsReady { runJobs() }
        for lane in lanesReady.sorted() { receive(lane: lane) }
        fireDueTimers()
        flush()
    }

    /// Watches lane `lane`'s socket (just opened).
    private func watch(_ lane: Int) throws {
        guard let socket = links[lane].socket else { return }
        try poller.register(socket)
        laneOfSocket[ObjectIdentifier(socket)] = lane
    }

    /// Stops watching lane `lane`'s socket, before it is closed.
    private func unwatch(_ lane: Int) {
        guard let socket = links[lane].socket else { return }
        poller.unregister(socket)
        laneOfSocket[ObjectIdentifier(socket)] = nil
    }

    /// Says that the loop sent on lane `lane`'s socket: the next wait asks it again (``ReadyPoller``'s edge
    /// rule: a send may take in the signal of a message that arrived meanwhile).
    private func sent(_ lane: Int) {
        if let socket = links[lane].socket { poller.checkAgain(socket) }
    }

    private func runJobs() {
        guard let wake else { return }
        do {
            while try wake.receive(wait: false) != nil {}
            poller.drained(wake)  // only after a receive that found nothing (ReadyPoller's edge rule)
        } catch {
            logger.debug("wake-up socket failed", metadata: ["error": "\(error)"])  // asked again by the next wait
        }
        for job in jobs.take() { job.run(self) }
    }

    private func fireDueTimers() {
        let now = MonotonicClock.nanoseconds()
        while let event = timers.popDue(now: now) {
            switch event {
            case .phase(let lane, let token):
                apps[lane].timerFired(token: token)
                drainEffects(lane)
            case .send(let lane, let generation, let message):
                if links[lane].generation == generation { _ = deliver(message, lane: lane) }
            case .rebind(let lane, let attempt):
                rebind(lane, attempt: attempt)
            }
        }
    }

    // MARK: - Frames from the bridge

    private func receive(lane: Int) {
        let link = links[lane]
        for _ in 0..<SimulatorLoop.messagesPerTurn {
            guard let socket = link.socket else { return }
            let frames: [[UInt8]]
            do {
                guard let message = try socket.receive(wait: false) else {
                    poller.drained(socket)
                    return
                }
                frames = message
            } catch {
                logger.warning("receive failed", metadata: ["lane": "\(link.id)", "error": "\(error)"])
                return
            }
            handle(frames, lane: lane)
        }
    }

    private func handle(_ frames: [[UInt8]], lane: Int) {
        let link = links[lane]
        var payload = frames[...]
        var from: [UInt8]?
        if link.kind == .router {
            guard let first = payload.popFirst() else { return }
            from = first
        }
        if payload.first?.isEmpty == true { payload = payload.dropFirst() }  // a REQ-style delimiter
        guard !payload.isEmpty else { return }
        let decoded = Result { () throws(RelayMessageError) in try RelayMessage(frames: payload) }
        guard admits(decoded, from: from, lane: lane) else { return }
        if link.kind == .router { link.peer = from }
        defer {
            // Callbacks kept for want of a bridge go to this one, after its own answer.
            if link.hasOutbox {
                flush()
                link.flushOutbox()
                sent(lane)
            }
        }

        let message: RelayMessage
        switch decoded {
        case .success(let value): message = value
        case .failure(let error):
            answerMalformed(error, from: from, lane: lane)
            return
        }
        switch message {
        case .hello:
            answerHello(from: from, lane: lane)
        case .open(let reference, let url):
            open(url, reference: reference, from: from, lane: lane)
        case .received(let seq):
            link.received(seq)
        case .opened, .notOpened, .callback, .returned:
            logger.debug(
                "message from the bridge ignored", metadata: ["lane": "\(link.id)", "kind": "\(message.kind.rawValue)"])
        }
    }

    /// The epoch rule (``LinkEpochs``): whether a frame from link `from` is served. A `hello` (one without
    /// its body carries no epoch: 0) is weighed by its epoch; any other frame by its link's `hello`. A frame
    /// not served is counted (``Simulator/staleFrameCount(lane:)``) and dropped unanswered.
    private func admits(_ decoded: Result<RelayMessage, RelayMessageError>, from: [UInt8]?, lane: Int) -> Bool {
        let link = links[lane]
        let admitted: Bool
        switch decoded {
        case .success(.hello(let body)):
            admitted = link.epochs.hello(from: from, epoch: BridgeHello.epoch(of: body))
        case .failure(let error) where error.knownKind == .hello:
            admitted = link.epochs.hello(from: from, epoch: 0)
        default:
            admitted = link.epochs.admits(from)
        }
        if !admitted {
            publish(lane) { $0.staleFrames += 1 }
            logger.debug(
                "frame of a bridge with a lower epoch ignored",
                metadata: ["lane": "\(link.id)", "highestEpoch": "\(link.epochs.highest)"])
        }
        return admitted
    }

    private func answerHello(from: [UInt8]?, lane: Int) {
        publish(lane) { $0.hellos += 1 }
        reply(lane, to: from, .hello(body: helloBody(lane)))
        links[lane].resendUnreceived()  // sent after this answer, with the outbox
    }

    /// Frames that are no message of the link: a `hello` without its body is answered all the same, an
    /// `open` without its URL gets its one answer (`not_opened`, docs/RELAY.md), the rest is ignored.
    private func answerMalformed(_ error: RelayMessageError, from: [UInt8]?, lane: Int) {
        if error.knownKind == .hello { return answerHello(from: from, lane: lane) }
        if let reference = error.openReference {
            reply(lane, to: from, .notOpened(ref: reference, reason: Self.noURL))
        }
        logger.debug("malformed message ignored", metadata: ["lane": "\(links[lane].id)", "error": "\(error)"])
    }

    /// The `not_opened` reason of an `open` without its URL.
    private static let noURL = Array("missing URL".utf8)

    private func open(_ urlBytes: [UInt8], reference: [UInt8], from: [UInt8]?, lane: Int) {
        let link = links[lane]
        let app = apps[lane]
        publish(lane) { $0.urls.append(String(decoding: urlBytes, as: UTF8.self)) }
        requestObserver?(
            ObservedRequest(
                lane: link.id, reference: String(decoding: reference, as: UTF8.self),
                url: String(decoding: urlBytes, as: UTF8.self)))
        switch app.behaviour.fault {
        case .dropLinkOnOpen:
            logger.debug("fault: link dropped on open", metadata: ["lane": "\(link.id)"])
            dropLink(lane)
            return
        case .notOpened(let reason):
            reply(lane, to: from, .notOpened(ref: reference, reason: Array(reason.utf8)))
            return
        default:
            break
        }
        let parsed = urlBytes.withUnsafeBufferPointer { RequestParsing.parse(bytes: $0) }
        let request: RequestURL
        switch parsed {
        case .failure(let error):
            reply(lane, to: from, .notOpened(ref: reference, reason: Array(error.description.utf8)))
            return
        case .success(let value):
            request = value
        }
        guard request.isVivaPayRequest else {
            let reason = "no app opens \(request.scheme)://\(request.host)\(request.path)"
            reply(lane, to: from, .notOpened(ref: reference, reason: Array(reason.utf8)))
            return
        }
        reply(lane, to: from, .opened(ref: reference))
        app.handle(request)
        drainEffects(lane)
    }

    /// Replies to the bridge, publishing this turn's changes first: whatever the bridge receives is already
    /// visible through the simulator's queries.
    private func reply(_ lane: Int, to from: [UInt8]?, _ message: RelayMessage) {
        flush()
        links[lane].reply(to: from, message)
        sent(lane)
    }

    /// Delivers a message to the bridge, publishing this turn's changes first.
    private func deliver(_ message: RelayMessage, lane: Int) -> Bool {
        flush()
        defer { sent(lane) }
        return links[lane].deliver(message)
    }

    private func helloBody(_ lane: Int) -> [UInt8] {
        let platform = apps[lane].platform.rawValue
        return Array(
            #"{"platform":"\#(platform)","app":"\#(Simulator.appName)","version":"\#(Simulator.appVersion)"}"#.utf8)
    }

    // MARK: - Effects of the apps

    /// Carries out what the lane's app asked for, applying the lane's fault to its callbacks. State changes
    /// are published before callbacks leave, so a bridge that got a callback already sees the history and
    /// phase that go with it.
    func drainEffects(_ lane: Int) {
        let app = apps[lane]
        guard !app.effects.isEmpty else { return }
        let effects = app.effects
        app.effects.removeAll(keepingCapacity: true)
        var callbacks = false
        for effect in effects {
            switch effect {
            case .callback:
                callbacks = true
            case .schedule(let milliseconds, let token):
                timers.schedule(.phase(lane: lane, token: token), at: deadline(after: milliseconds))
            case .phase(let phase):
                publish(lane) { $0.phase = phase }
            case .recorded(let record):
                ledger?.recordRelayed(record, terminalId: app.terminalId)
                publish(lane) { $0.records.append(record) }
            case .updated(let index, let record):
                publish(lane) { $0.updates.append((index, record)) }
            case .batches(let batches):
                publish(lane) { $0.batches = batches }
            case .foregrounded:
                publish(lane) { $0.foregrounds += 1 }
            }
        }
        guard callbacks else { return }
        for case .callback(let url) in effects { deliverCallback(url, lane: lane) }
    }

    private func deliverCallback(_ url: String, lane: Int) {
        let link = links[lane]
        let message = RelayMessage.callback(url: Array(url.utf8))
        switch apps[lane].behaviour.fault {
        case .neverAnswer:
            logger.debug("fault: callback swallowed", metadata: ["lane": "\(link.id)"])
        case .answerLate(let milliseconds):
            timers.schedule(
                .send(lane: lane, generation: link.generation, message: message), at: deadline(after: milliseconds))
        case .answerTwice:
            _ = deliver(message, lane: lane)
            _ = deliver(message, lane: lane)
        default:
            if !deliver(message, lane: lane) {
                logger.debug("link down: callback lost", metadata: ["lane": "\(link.id)"])
            }
        }
    }

    // MARK: - Control (called from ``LoopJob``s, on this thread)

    /// Sends any message to the bridge (injected callbacks, `returned`).
    func inject(_ message: RelayMessage, lane: Int) {
        _ = deliver(message, lane: lane)
    }

    /// Closes a lane's socket: the relay is down. The app goes on; its callbacks are lost meanwhile.
    func dropLink(_ lane: Int) {
        guard links[lane].isUp else { return }
        unwatch(lane)
        links[lane].close()
        publish(lane) { $0.linkUp = false }
    }

    /// Binds a lane's socket again at the same endpoint; the relay and app restart, forgetting what was in
    /// flight. Retries for a while if the port is not free yet.
    func restoreLink(_ lane: Int) {
        guard !links[lane].isUp else { return }
        apps[lane].restart()
        drainEffects(lane)
        links[lane].forget()
        publish(lane) { $0.resetHellos = true }
        publish(lane) { $0.hellos = 0 }
        rebind(lane, attempt: 0)
    }

    private func rebind(_ lane: Int, attempt: Int) {
        let link = links[lane]
        guard !link.isUp else { return }
        do {
            try link.open(context: context)
            do {
                try watch(lane)
            } catch {
                link.close()  // a socket nobody reads would take the bridge's connection: closed, tried again
                throw error
            }
            publish(lane) { $0.linkUp = true }
        } catch {
            guard attempt < 250 else {
                logger.error("could not bind again", metadata: ["lane": "\(link.id)", "error": "\(error)"])
                return
            }
            timers.schedule(.rebind(lane: lane, attempt: attempt + 1), at: deadline(after: 20))
        }
    }

    // MARK: - Publishing

    /// Records a change of lane `lane`, published at the end of the turn.
    private func publish(_ lane: Int, _ change: (inout LaneDelta) -> Void) {
        if !dirtyFlags[lane] {
            dirtyFlags[lane] = true
            dirty.append(lane)
        }
        change(&deltas[lane])
    }

    /// Publishes this turn's changes to the monitor (and wakes its waiters).
    func flush() {
        guard !dirty.isEmpty else { return }
        monitor.apply(deltas, dirty: dirty)
        for lane in dirty {
            deltas[lane] = LaneDelta()
            dirtyFlags[lane] = false
        }
        dirty.removeAll(keepingCapacity: true)
    }

    private func deadline(after milliseconds: Int) -> UInt64 {
        MonotonicClock.nanoseconds() + UInt64(max(0, milliseconds)) * 1_000_000
    }
}
