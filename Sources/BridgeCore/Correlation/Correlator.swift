import Foundation
import InterApp
import Logging

/// The heart of the bridge: it takes commands and relay frames, matches callbacks to what is in flight
/// (PROTOCOL.md section 6), and decides replies, events and journal writes as ``Effect``s.
///
/// It does no I/O itself: a command's state is asked of its ``CommandStore`` (memory, staged writes, the
/// journal behind them), and the loop carries the effects out. It belongs to the loop's thread.
package final class Correlator {
    let configuration: CorrelationSettings
    /// Where every command's state lives: the correlator asks it and never reads or writes the journal itself.
    package let store: CommandStore
    let clock: any BridgeClock
    let logger: Logger
    let decoder: CommandDecoder
    var lanes: [String: LaneState] = [:]
    /// Lane ids in configuration order, for the `lanes` query; lanes a reload removed stay at the end
    /// until what is in flight on them ends.
    var laneOrder: [String]
    /// Lanes a reload removed or changed, waiting to be idle (see ``settleLanes()``).
    var changingLanes: Set<String> = []
    /// How far the bridge has gone toward stopping; past ``ShutdownPhase/running`` terminal commands are
    /// refused `shutting_down` and no look-up starts. Moved by ``beginShutdown(deadlineMs:)``,
    /// ``stopNow()`` and ``shutdownTurnEnded(nowMs:)``.
    private(set) var phase = ShutdownPhase.running
    /// Whether the journal can take new commands; while it cannot (a write failed, the file was lost),
    /// terminal commands are refused `journal_unavailable` and queries are answered. Moved by
    /// ``journalWritesFailed(_:)``, ``journalFileLost(_:)`` and ``journalWritesResumed()``.
    private(set) var journalHealth = JournalHealth.healthy
    /// Whether the client (its name with security, nil on plain sockets) may send `resolve`: the loop
    /// gives it from the security allow-list.
    let mayResolve: (String?) -> Bool
    /// Counts commands and callbacks for `/metrics`.
    let metrics: any CorrelationMetrics
    /// The bridge's epoch, which every relay `hello` carries (a relay ignores a link whose epoch is lower than
    /// one it has seen): set by the loop once it knows it, before any link comes up.
    package var epoch = 0
    /// With `vivaCloud`: the `unknown` commands waiting to be looked up in Viva's records.
    var vivaLookups: VivaLookups?
    /// The commands Viva's records resolved this run, by lane, action and `clientTransactionId`: a late
    /// callback that disagrees with one is told apart from an orphan.
    var vivaResolutions: [String: String] = [:]
    /// The journal's identity, the namespace of cloud sessions' ids (``cloudSessionId(of:)``): set by the loop
    /// before ``restore()`` when a lane is a cloud lane.
    package var cloudJournalIdentity: UUID?
    /// The cloud lanes' commands whose session is in flight at Viva, by session id.
    var cloudSessions: [String: CloudSessionInFlight] = [:]
    private var effects: [Effect] = []
    private var lookupCounter = 0

    /// Creates the correlator of `configuration`'s lanes; `mayResolve` says which clients may send
    /// `resolve` (every one unless told).
    package init(
        configuration: CorrelationSettings, store: CommandStore, clock: any BridgeClock, logger: Logger,
        metrics: any CorrelationMetrics, mayResolve: @escaping (String?) -> Bool = { _ in true }
    ) {
        self.metrics = metrics
        self.mayResolve = mayResolve
        self.configuration = configuration
        self.store = store
        self.clock = clock
        self.logger = logger
        self.decoder = CommandDecoder(maxBytes: configuration.maxCommandBytes)
        for lane in configuration.lanes { lanes[lane.id] = LaneState(configuration: lane) }
        laneOrder = configuration.lanes.map(\.id)
        vivaLookups = configuration.cloud.map {
            VivaLookups(resolveAfterMs: $0.resolveUnknownAfterMs, schedule: $0.lookupSchedule)
        }
    }

    // MARK: What the loop reads
    //
    // The stored state stays internal to the core, so that the optimizer sees every access to it and drops the
    // dynamic exclusivity checks a `package` stored property would cost on each access; the loop reads it here.

    /// Lane `id`'s state; nil for a lane the correlator does not have.
    package func lane(_ id: String) -> LaneState? { lanes[id] }

    /// Every lane's state, by id.
    package var laneStates: [String: LaneState] { lanes }

    /// Whether the loop ends after this turn.
    package var isStopping: Bool { phase.isStopping }

    /// Whether the journal's file was lost (deleted or replaced) this run.
    package var journalFileIsLost: Bool { journalHealth.isFileLost }

    // MARK: Events of the bridge

    /// The bridge is shutting down: from now on terminal commands are refused `shutting_down` and no
    /// look-up starts; what is in flight goes on until it ends or the clock reaches `deadlineMs`. Returns
    /// whether draining begins now (once).
    package func beginShutdown(deadlineMs: Int64) -> Bool { phase.drain(deadlineMs: deadlineMs) }

    /// The bridge stops after this turn, leaving what is in flight in the journal.
    package func stopNow() { phase.stop() }

    /// The end of a loop turn: a drain with nothing left in flight, or past its deadline, stops. Returns
    /// how many commands are left in flight when it stops now, nil otherwise.
    package func shutdownTurnEnded(nowMs: Int64) -> Int? {
        phase.turnEnded(nowMs: nowMs, outstanding: outstandingCount)
    }

    /// A journal write failed: new commands are refused `journal_unavailable` until writes work again. A
    /// problem already known (a write failed before, the file was lost) is kept: it says more.
    package func journalWritesFailed(_ problem: String) { journalHealth.writesFailed(problem) }

    /// The journal file was deleted or replaced while running: new commands are refused
    /// `journal_unavailable` for the rest of the run, whatever was known before. Returns whether that is
    /// news (the loop announces it once).
    @discardableResult
    package func journalFileLost(_ problem: String) -> Bool { journalHealth.fileLost(problem) }

    /// Journal writes work again (held results were written): new commands are taken again, unless the
    /// journal file was lost. Returns whether they are.
    @discardableResult
    package func journalWritesResumed() -> Bool { journalHealth.writesResumed() }

    /// How many of the newest journaled callbacks a start reads for the relays' numbers (``restore()``).
    static let restoredRelayCallbacks = 65_536

    /// Picks up what a previous run left outstanding, the open batches, and the relays' numbered callbacks
    /// among the newest ``restoredRelayCallbacks`` journaled (a copy a relay sends again after the restart is
    /// known by its number). A command left on a lane that is no longer configured ends `unknown` now (no
    /// callback can reach it), so that it is published, listed by `journal unknown` and answered to every
    /// repeat.
    package func restore() throws {
        for (lane, batch) in try store.openBatches() { lanes[lane]?.openBatch = batch }
        // Oldest first, so that each lane keeps its newest (``RelaySequenceMemory/limit``).
        for (lane, key) in try store.recentRelayCallbacks(limit: Self.restoredRelayCallbacks).reversed() {
            lanes[lane]?.relaySequences.took(key)
        }
        for stored in try store.outstandingInJournal() {
            let action = stored.action
            let laneId = stored.lane ?? Topic.bridgeLane
            let record = CommandRecord(
                id: stored.id, lane: laneId, action: action, clientTransactionId: stored.clientTransactionId,
                fingerprint: stored.fingerprint, deadlineMs: stored.deadlineMs ?? clock.nowMs(), waiters: [],
                purpose: .client(name: stored.client))
            record.progress = .restored
            if RequestedAmounts.checkedActions.contains(action) {
                record.requested = RequestedAmounts(fingerprint: stored.fingerprint)
            }
            record.receivedMs = stored.createdMs
            record.journalSeq = stored.seq
            store.track(record)
            guard let lane = lanes[laneId] else {
                logger.warning(
                    "journal holds an outstanding command for a lane no longer configured; it ends unknown",
                    metadata: ["id": "\(stored.id)", "lane": "\(laneId)"])
                finalize(
                    record,
                    .outcome(
                        .unknown,
                        "lane \(laneId) was removed from the configuration while this command was in flight, so no "
                            + "callback can reach it; the terminal may have completed it: check Viva's records"),
                    event: .unknown)
                continue
            }
            if case .cloud(let device) = lane.transport {
                if action != .abort, lane.inFlight.activity.isIdle { lane.inFlight.start(record) }
                resumeThroughCloud(record, lane: lane, device: device)
            } else if action == .abort {
                lane.inFlight.addAbort(record)
            } else if lane.inFlight.activity.isIdle {
                lane.inFlight.start(record)
            } else {
                logger.warning(
                    "two outstanding transactions on one lane in the journal; the later waits for its deadline",
                    metadata: ["id": "\(record.id)", "lane": "\(laneId)"])
                lane.inFlight.addAbort(record)
            }
        }
        if store.recordCount > 0 {
            logger.info("restored outstanding commands", metadata: ["count": "\(store.recordCount)"])
        }
        seedVivaLookups()
    }

    /// The effects decided since the last call, in order.
    func takeEffects() -> [Effect] {
        defer { effects.removeAll(keepingCapacity: true) }
        return effects
    }

    /// Whether any effect waits to be carried out.
    package var hasEffects: Bool { !effects.isEmpty }

    /// The effects decided since the last call, and the number of the turn their journal entries belong
    /// to: the loop hands the entries to the journal writer under that number, and carries out the effects
    /// once ``journalCommitted(through:)`` says it is in.
    /// Nil when nothing was decided since (no turn is sealed then).
    package func takeTurn() -> (number: UInt64, effects: [Effect])? {
        guard !effects.isEmpty else { return nil }
        return (store.sealTurn(), takeEffects())
    }

    /// The journal writer committed every turn up to and including `turn`.
    package func journalCommitted(through turn: UInt64) { store.committed(through: turn) }

    /// Everything staged is committed (a synchronous commit: a retry after a failed write).
    package func journalCommitted() { store.committed() }

    /// Commands still waiting on a terminal (the bridge's own look-ups excluded).
    package var outstandingCount: Int { store.outstandingCount }
    /// How many commands are `unknown` now (``CommandStore/unknownCount()``).
    package var unknownCount: Int? { store.unknownCount() }

    func emit(_ effect: Effect) { effects.append(effect) }

    func nowMs() -> Int64 { clock.nowMs() }

    func nextLookupId(for saleId: String) -> String {
        lookupCounter += 1
        return "vivabridge-lookup-\(lookupCounter)-\(saleId)"
    }
}
