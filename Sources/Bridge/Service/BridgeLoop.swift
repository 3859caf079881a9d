import BridgeCore
import BridgeJournal
import InterApp
import Logging
import ZeroMQ

/// The bridge's one I/O thread: it owns every socket and the journal, polls them, feeds the
/// ``Correlator``, commits the journal, then carries out the network effects.
final class BridgeLoop {
    /// At most this many messages are read from one socket per turn, so no input starves another.
    static let drainLimit = 256
    /// The longest the loop sleeps in a poll when nothing is due: batch expiry and look-ups are checked
    /// this often. Deadlines and grace periods wake it exactly (see ``pollTimeout()``). A poll costs by
    /// the sockets that are ready, not by the lanes (``LoopSockets``); a tick still walks every lane.
    static let tickMs: Int64 = 1000

    let configuration: BridgeConfiguration
    let context: Context
    /// Where a reload leaves its lanes for the loop (``Bridge/reloadLanes(_:)``).
    private let laneReloads: LaneReloads
    let logger: Logger
    let clock: any BridgeClock
    let journal: any JournalStore
    /// Commits each turn's journal entries on a thread of its own (``carryOutEffects()``).
    let writer: JournalWriter
    /// The turns handed to ``writer`` whose effects wait for their commit.
    var pending = PendingTurns()
    let correlator: Correlator
    var stamper: EventStamper
    /// The sockets it binds for others: commands, events, the control channel, the event tap.
    let own: OwnSockets
    let links: LaneLinks
    /// Every socket the loop reads, with what reads it.
    let sockets: LoopSockets
    /// What waits for a journal write that failed (docs/RELIABILITY.md, "Disk full"): journaled, in order,
    /// before any of it is carried out.
    var held = HeldTurns()
    /// `journalRetentionDays`, when it is on.
    var retention: JournalRetention?
    private var schedule = LoopSchedule()
    /// The prefixes subscribers asked for (XPUB reports the first subscription to a prefix and the
    /// last unsubscription; with `ZMQ_XPUB_VERBOSE`, which reports every subscription but only the last
    /// unsubscription, these counts would never fall back to zero); an event no prefix matches is counted
    /// but never built.
    private var subscriptions = TopicPrefixes()
    let bound: BoundEndpoints
    private let pulse: LoopPulse
    let observation: Observation
    let metrics: LoopMetrics
    var tapOutbox = TapOutbox()
    static let roleActiveDelayMs: Int64 = 1000
    /// Today's final commands per outcome, for the `lanes` snapshot.
    var today = TodayOutcomes()
    /// The log lines and the count of replies the command socket could not deliver.
    var undeliveredReplies = UndeliveredReplies()
    /// Viva's records, with `vivaCloud` (``openVivaCloud()``); nil without.
    var vivaCloud: VivaCloudLink?

    init(
        context: Context, configuration: BridgeConfiguration, controlEndpoint: String, clock: any BridgeClock,
        logger: Logger, pulse: LoopPulse, laneReloads: LaneReloads, zap: ZAPHandler? = nil,
        observation: Observation, leaseEpoch: Int? = nil
    ) throws {
        self.pulse = pulse
        self.context = context
        self.laneReloads = laneReloads
        self.observation = observation
        metrics = LoopMetrics(observation.metrics)
        self.configuration = configuration
        self.logger = logger
        self.clock = clock
        JournalGapAutoFill.fillIfBehind(configuration, logger: logger)
        journal = try JournalStores.open(
            configuration.journal, sync: configuration.journalSync, leaseEpoch: leaseEpoch,
            password: configuration.journalPassword)
        writer = try JournalWriter(
            committer: try journal.makeCommitter(),
            commitsHere: journal.commitsCheaplyOnTheLoop, context: context,
            metrics: metrics.shared)
        correlator = Correlator(
            configuration: configuration.correlation, store: CommandStore(journal: journal, logger: logger),
            clock: clock,
            logger: logger, metrics: metrics,
            mayResolve: { [security = configuration.security] in Self.mayResolve($0, security: security, zap: zap) })
        retention = configuration.journalRetentionDays.map { JournalRetention(days: $0, startMs: clock.nowMs()) }
        if configuration.vivaCloud != nil { correlator.cloudJournalIdentity = try journal.journalIdentity() }
        try correlator.restore()

        Self.warnIfInsecure(configuration, logger: logger)
        if !configuration.journalIsShared {
            Self.warnIfJournalExposed(configuration.journal, logger: logger)
        }
        own = try Self.bindOwnSockets(
            context: context, configuration: configuration, controlEndpoint: controlEndpoint,
            tapEndpoint: observation.tap.endpoint)
        observation.tap.bound()
        bound = try own.bound()
        // Only a bridge that bound every endpoint counts as a start: a failed start leaves the epoch alone.
        stamper = EventStamper(epoch: try journal.nextEpoch())
        observation.live.set(epoch: stamper.epoch)
        correlator.epoch = stamper.epoch

        links = LaneLinks(context: context, configuration: configuration)
        sockets = try LoopSockets()
        try watchOwnSockets()
        try openConfiguredLinks()
        try openVivaCloud()
        logger.info(
            "bridge listening",
            metadata: [
                "command": "\(bound.command)", "events": "\(bound.events)", "pull": "\(bound.commandPull ?? "off")",
                "lanes": "\(links.count)", "epoch": "\(stamper.epoch)",
            ])
    }

    /// The most events queued for one subscriber that does not read; past it, events to that
    /// subscriber are dropped (ZeroMQ's PUB semantics) and its `seq` shows the gap. About 1 KB each, so
    /// a hundred subscribers that never read hold at most about 100 MB.
    static let eventsPerSubscriber: Int32 = 1000

    /// Runs until a shutdown completes; closes every socket it owns before returning.
    func run() throws {
        var stoppedCleanly = false
        defer {
            finishPendingTurns()
            flushTap()
            pulse.end()
            closeAll()
            observation.live.set(.stopped)
            observation.live.setAllLanesDown()
            observation.metrics.active.record(0)
            if configuration.journalIsShared { observation.live.set(role: .standby) }
            // Logged once the last turns are carried out and every socket is closed: nothing follows it.
            if stoppedCleanly {
                logger.info("bridge stopped", metadata: ["epoch": "\(stamper.epoch)", "events": "\(stamper.seq)"])
            }
        }
        observation.live.set(role: .active)
        observation.live.set(.ready)
        observation.metrics.active.record(1)
        if configuration.journalIsShared {
            schedule.announceRole(nowMs: clock.nowMs(), afterMs: Self.roleActiveDelayMs)
        }
        sampleGauges()
        var running = true
        while running {
            pulse.beat()
            if pending.count >= Self.maxPendingTurns { waitForWriter() }
            try sockets.turn(timeoutMilliseconds: pollTimeout())
            let now = clock.nowMs()
            let ticked = schedule.takeTick(nowMs: now, tickMs: Self.tickMs)
            if ticked {
                correlator.tick()
                askVivaRecords()
                undeliveredReplies.tick(nowMs: now, logger: logger)
                checkJournalHealth()
                reviveStalledLinks()
                sampleGauges()
            }
            correlator.settleLanes()
            carryOutEffects()
            // Once every turn's writes are committed: a batch never removes a row they were about to change.
            if ticked, retention?.isDue(nowMs: now) == true, waitForPendingTurns(upToMs: 1000) { applyRetention() }
            if schedule.takeRoleAnnouncement(nowMs: now) {
                publish(.roleActive(instance: observation.live.instance))
            }
            if schedule.takeHeartbeat(nowMs: now, everyMs: Int64(configuration.heartbeatEventMs)) {
                publish(correlator.heartbeat())
            }
            flushTap()
            schedule.correlatorDue(correlator.nextDueMs())
            if let left = correlator.shutdownTurnEnded(nowMs: clock.nowMs()), left > 0 {
                logger.warning(
                    "shutdown grace over; outstanding commands stay in the journal for the next start",
                    metadata: ["count": "\(left)"])
            }
            running = !correlator.isStopping
        }
        stoppedCleanly = true
    }

    /// The most turns that wait for the journal writer before the loop stops reading and waits for it.
    static let maxPendingTurns = 4096

    /// Blocks until the journal writer reports (at most a second), then carries out what it committed.
    private func waitForWriter() {
        let wait = Poller()
        wait.add(writer.wake)
        _ = try? wait.poll(timeoutMilliseconds: 1000)
        sockets.touched(writer.wake)
        collectCommits()
    }

    /// Waits (at most `upToMs`) until no turn waits for the journal writer, carrying out what it commits;
    /// true when none waits.
    private func waitForPendingTurns(upToMs: Int) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(upToMs)
        while !pending.isEmpty, ContinuousClock.now < deadline { waitForWriter() }
        return pending.isEmpty
    }

    /// Before the loop ends: waits for the turns still with the journal writer, and carries them out.
    /// Gives up after 30 s of a writer that does not answer: what it had not taken yet is dropped, not
    /// journaled (it never left), and the rest is not carried out.
    private func finishPendingTurns() {
        let deadline = ContinuousClock.now + .seconds(30)
        while !pending.isEmpty || correlator.hasEffects, ContinuousClock.now < deadline {
            carryOutEffects()
            if !pending.isEmpty { waitForWriter() }
        }
        if !pending.isEmpty {
            writer.discardQueued()
            logger.error(
                "the journal writer did not finish in 30 s; what it had not committed was not carried out",
                metadata: ["turns": "\(pending.count)"])
            pending.abandon()
        }
    }

    private func pollTimeout() -> Int {
        if correlator.hasEffects { return 0 }
        return Int(schedule.waitMs(nowMs: clock.nowMs(), tickMs: Self.tickMs))
    }

    func readCommands() {
        drainCommands(own.commands) { frames, client in
            guard frames.count >= 2, let body = frames.last else { return }
            if frames.count > 2, !frames[frames.count - 2].isEmpty {
                correlator.rejectUnframed(frames.count - 1, to: .router(envelope: [frames[0]]))
                return
            }
            correlator.receiveCommand(body, from: .router(envelope: Array(frames.dropLast())), client: client)
        }
    }

    func readPull(_ pull: Socket) {
        drainCommands(pull) { frames, client in
            if let body = frames.last { correlator.receiveCommand(body, from: .pull, client: client) }
        }
    }

    /// ``drain(_:_:)`` for a command socket: with security, each message comes with the name of the
    /// client the ZAP handler admitted.
    private func drainCommands(_ socket: Socket, _ handle: ([[UInt8]], String?) -> Void) {
        guard configuration.security != nil else {
            drain(socket) { handle($0, nil) }
            return
        }
        for _ in 0..<Self.drainLimit {
            guard let message = receiveOrNoteDrained(socket, { try $0.receiveWithUserId(wait: false) }) else { return }
            handle(message.frames, message.userId)
        }
    }

    /// Reads at most ``drainLimit`` messages of a socket found ready; what is left is read next turn.
    func drain(_ socket: Socket, _ handle: ([[UInt8]]) -> Void) {
        for _ in 0..<Self.drainLimit {
            guard let frames = receiveOrNoteDrained(socket, { try $0.receive(wait: false) }) else { return }
            handle(frames)
        }
    }

    /// One non-blocking receive; nil when it found nothing, which the poller is told (the socket is
    /// drained and needn't be asked before the next wait), or when it failed.
    func receiveOrNoteDrained<Message>(
        _ socket: Socket, _ receive: (Socket) throws -> Message?
    ) -> Message? {
        do {
            guard let message = try receive(socket) else {
                sockets.drained(socket)
                return nil
            }
            return message
        } catch {
            return nil
        }
    }

    /// Reads control messages; a `stop` ends the loop after this turn.
    func readControl() {
        while let frames = try? own.control.receive(wait: false) {
            switch frames.first.flatMap({ ControlWord(rawValue: String(decoding: $0, as: UTF8.self)) }) {
            case .shutdown?:
                let grace = configuration.shutdownGraceMs
                if correlator.beginShutdown(deadlineMs: clock.nowMs() + Int64(grace)) {
                    observation.live.set(.draining)
                    let inFlight = correlator.outstandingCount
                    logger.notice(
                        "draining: the commands in flight are given up to shutdownGraceMs to end; new terminal commands are refused (shutting_down)",
                        metadata: ["inFlight": "\(inFlight)", "graceMs": "\(grace)"])
                }
            case .stop?:
                correlator.stopNow()
                return
            case .reloadLanes?:
                if let lanes = laneReloads.take() { correlator.reloadLanes(lanes) }
            case .snapshot?:
                // Built once every decided turn has left: the lanes it shows, the journal's counts and the
                // events published before its `seq` are then one and the same state.
                _ = waitForPendingTurns(upToMs: 1000)
                publishSnapshot()
            case .wake?, nil:
                schedule.tickNow()
            }
        }
    }

    func readSubscriptions() {
        drain(own.events) { frames in
            guard let frame = frames.first, let kind = frame.first else { return }
            let prefix = Array(frame.dropFirst())
            if kind == 1 { subscriptions.insert(prefix) } else if kind == 0 { subscriptions.remove(prefix) }
        }
    }

    /// Whether any subscriber is on the events socket (XPUB told the loop), whatever its prefix.
    var hasSubscribers: Bool { !subscriptions.isEmpty }

    /// Whether a subscriber's prefix takes `topic`.
    func wanted(_ topic: [UInt8]) -> Bool { subscriptions.takes(topic) }

    /// Reads what a lanes' router's monitor reports: a link came up, or dropped. An event for an endpoint
    /// no link holds (one a reload just closed) is passed over.
    func readMonitor(_ router: LaneRouter) {
        while let event = try? router.monitor.receiveMonitorEvent(wait: false) {
            guard let link = links.link(on: router, endpoint: event.endpoint) else { continue }
            switch event.kind {
            case .handshakeSucceeded:
                guard link.cameUp() else { continue }
                correlator.linkUp(link.lane)
                observeLink(link.lane)
            case .disconnected:
                correlator.linkDown(link.lane)
                observeLink(link.lane)
                switch link.dropped() {
                case .remakeNow:
                    remake(link)
                case .backOff(let wasUp, let retryIn):
                    backedOff(link, wasUp: wasUp, retryIn: retryIn)
                case .ignore:
                    break
                }
            default: break
            }
        }
    }

    /// Counts and logs a link whose connection failed before it came up or right after
    /// (``LaneLink/Drop/backOff(wasUp:retryIn:)``): notice for the first failure in a row, then info, so
    /// that an endpoint that is not a relay does not flood the log.
    private func backedOff(_ link: LaneLink, wasUp: Bool, retryIn: Duration) {
        let metadata: Logger.Metadata = [
            "lane": "\(link.lane)", "endpoint": "\(link.endpoint)",
            "retrySeconds": "\(Int((retryIn / .seconds(1)).rounded(.up)))",
        ]
        if wasUp {
            correlator.linkReset(link.lane)
            logger.log(
                level: link.isFirstFailure ? .notice : .info,
                "link to the relay dropped right after it came up; connecting anew after a pause", metadata: metadata)
        } else {
            correlator.handshakeFailed(link.lane)
            logger.log(
                level: link.isFirstFailure ? .notice : .info,
                "lane link failed before it came up: the endpoint did not complete a ZeroMQ handshake (not a relay, or a relay holding another key?); connecting anew after a pause",
                metadata: metadata)
        }
    }

    /// Makes anew the links that are down and have not come up for a while since they were made
    /// (``LaneLink/isStalled``). Once a tick. A link whose relay has not answered `hello` is connected: it is
    /// not made anew (a relay that ignores the bridge's epoch would ignore the next hello too).
    func reviveStalledLinks() {
        for link in links where correlator.lane(link.lane)?.connection == .down {
            guard link.isStalled else { continue }
            link.countRevival()
            remake(link, stalled: true)
        }
    }

    /// Makes a dropped link anew: libzmq gives up on a connection it dropped for a protocol error (an
    /// over-size frame, for one), so the bridge never relies on its reconnecting. What the old socket
    /// still holds is read first, so no callback is lost.
    private func remake(_ link: LaneLink, stalled: Bool = false) {
        readWhatRemains(link.router)
        do {
            try links.remake(link)
        } catch {
            logger.error(
                "the link to a lane's relay could not be made anew; the lane stays down",
                metadata: ["lane": "\(link.lane)", "error": "\(error)"])
            return
        }
        if stalled {
            // A relay that is down is retried this way too: info, not notice, so that it does not flood.
            logger.info("lane link still not up; making it anew", metadata: ["lane": "\(link.lane)"])
            return
        }
        correlator.linkReset(link.lane)
        logger.notice(
            "link to the relay dropped (relay gone, or it sent what ZeroMQ refuses, such as a frame over 1 MiB); connecting anew",
            metadata: ["lane": "\(link.lane)"])
    }

    private func closeAll() {
        sockets.close()
        closeVivaCloud()
        writer.stop()
        links.closeAll()
        own.close()
        journal.close()
    }
}
