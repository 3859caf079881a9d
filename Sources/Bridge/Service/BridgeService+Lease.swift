import BridgeCore
import BridgeJournal
import Dispatch
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

extension BridgeService {
    /// How often a standby asks whether the journal's lease is free.
    static let standbyPollMs = 250

    /// Standby, then active while the lease is held, then standby again, until a shutdown (see ``run()``).
    func runWithLease() async throws {
        let bridge = bridge
        let configuration = bridge.configuration
        let instance = configuration.instanceName
        let openLease: @Sendable () throws -> any JournalLeasing
        do {
            openLease = try JournalStores.leaseOpener(
                configuration.journal, password: configuration.journalPassword, instance: instance,
                leaseMs: configuration.leaseMs)
        } catch {
            throw BridgeServiceError(.startFailed, underlying: error)
        }
        var lease: (any JournalLeasing)?
        defer { lease?.close() }
        var announcedStandby = false
        while true {
            bridge.enterStandby()
            let taken = try await Self.turningAsStandby(bridge) {
                try await waitForLease(
                    opening: openLease, instance: instance, lease: &lease, announce: !announcedStandby)
            }
            guard let held = taken else {
                bridge.standbyEnded()
                return
            }
            if !announcedStandby {
                announcedStandby = true
            }
            switch try await serve(held) {
            case .shutDown: return
            case .lostToAnother: continue
            }
        }
    }

    /// Runs `wait` while the standby's pulse beats every ``standbyPollMs`` (``Bridge/standbyTurned()``), what
    /// `/healthz` and the systemd watchdog read: a standby is alive while it waits, whether or not the database
    /// answers (one that cannot be reached is a warning in the log; restarting the standby would not bring it back).
    static func turningAsStandby<T: Sendable>(_ bridge: Bridge, _ wait: () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { beats in
            beats.addTask {
                while !Task.isCancelled {
                    bridge.standbyTurned()
                    try? await Task.sleep(for: .milliseconds(standbyPollMs))
                }
            }
            defer { beats.cancelAll() }
            return try await wait()
        }
    }

    /// A lease just taken: which, of which epoch, and when the statement that took it was sent.
    struct HeldLease: Sendable {
        let lease: any JournalLeasing
        let epoch: Int
        let sentNs: UInt64
    }

    /// One poll of the lease: taken, or held (by the holder named, nil when none is running).
    private enum LeaseAttempt: Sendable {
        case taken(HeldLease)
        case held(by: LeaseHolder?)
    }

    private enum ServeEnd {
        case shutDown
        case lostToAnother
    }

    /// Polls the lease every ``standbyPollMs`` until it is free, then takes it; nil on a graceful shutdown (or
    /// cancellation) while standby. A database that cannot be reached is retried, with a warning; `lease` is
    /// the lease opened (by `opening`) at an earlier wait, kept for the next.
    private func waitForLease(
        opening openLease: @escaping @Sendable () throws -> any JournalLeasing, instance: String,
        lease: inout (any JournalLeasing)?, announce: Bool
    ) async throws -> HeldLease? {
        let logger = bridge.logger
        let onStandby = onStandby
        let start = lease
        let found = Mutex<(any JournalLeasing)?>(start)
        defer { lease = found.withLock { $0 } }
        do {
            var watch = StandbyWatch(announce: announce)
            while true {
                try Task.checkCancellation()
                // Asked at each poll rather than through a handler: ServiceLifecycle's `cancelWhenGracefulShutdown`
                // ends its watcher with an unstructured task on the cooperative pool, which a service run on an
                // executor of its own would then wait for.
                if Task.isShuttingDownGracefully { return nil }
                let actions: [StandbyWatch.Action]
                do {
                    let attempt = try await Self.offPool { () throws -> LeaseAttempt in
                        let link = try found.withLock { current in
                            if let current { return current }
                            let made = try openLease()
                            current = made
                            return made
                        }
                        let sent = DispatchTime.now().uptimeNanoseconds
                        if let epoch = try link.tryAcquire() {
                            return .taken(HeldLease(lease: link, epoch: epoch, sentNs: sent))
                        }
                        return .held(by: try link.holder())
                    }
                    switch attempt {
                    case .taken(let held): return held
                    case .held(let holder): actions = watch.answered(holder: holder)
                    }
                } catch let error as JournalError where error.isFromNewerVersion {
                    throw error
                } catch {
                    actions = []
                    if watch.failed() {
                        logger.warning(
                            "standby: the journal's database cannot be reached; asking again every 250 ms",
                            metadata: ["instance": "\(instance)", "error": "\(error)"])
                    }
                }
                for action in actions {
                    switch action {
                    case .databaseAnswers:
                        logger.notice("the journal's database answers again", metadata: ["instance": "\(instance)"])
                    case .standby(let holder, let epoch):
                        logger.notice(
                            "standby: another bridge holds the journal's lease; this one takes over when it goes",
                            metadata: [
                                "instance": "\(instance)", "holder": "\(holder ?? "-")", "epoch": "\(epoch ?? 0)",
                            ])
                        onStandby()
                    }
                }
                try await Task.sleep(for: .milliseconds(Self.standbyPollMs))
            }
        } catch is CancellationError {
            return nil
        } catch let error as JournalError {
            throw BridgeServiceError(.startFailed, underlying: error)
        }
    }

    /// Serves while `held` lasts: starts the bridge under it, keeps it, and stops the bridge when it is lost
    /// (back to standby) or on a shutdown (the lease then released).
    private func serve(_ held: HeldLease) async throws -> ServeEnd {
        let bridge = bridge
        let logger = bridge.logger
        let live = bridge.live
        let keeper = LeaseKeeper(
            lease: held.lease, epoch: held.epoch, acquiredSentNs: held.sentNs,
            onExtended: { live.set(leaseValidUntilNs: $0) },
            onLoss: { loss in
                logger.critical(
                    "the journal's lease is lost: this bridge stops serving at once",
                    metadata: ["instance": "\(held.lease.instance)", "epoch": "\(held.epoch)", "why": "\(loss)"])
                bridge.requestHalt()
            })
        keeper.start()
        let bound: BoundEndpoints
        do {
            bound = try await Self.offPool { try bridge.start(leaseEpoch: held.epoch) }
        } catch {
            _ = try? await Self.offPool {
                keeper.stop()
                try? held.lease.release(epoch: held.epoch)
            }
            throw BridgeServiceError(.startFailed, underlying: error)
        }
        logger.notice(
            "active: this bridge holds the journal's lease and serves",
            metadata: ["instance": "\(held.lease.instance)", "epoch": "\(held.epoch)"])
        onStart(bound)
        let shutdownAsked = Atomic<Bool>(false)
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await bridge.waitForLoopAsync()
            } onGracefulShutdown: {
                shutdownAsked.store(true, ordering: .relaxed)
                bridge.shutdown()
            }
        } onCancel: {
            bridge.requestHalt()
        }
        if case .unreachable? = keeper.loss {
            // A renewal may hang on a dead connection until TCP gives up; the process ends without it.
            keeper.stop(waiting: false)
        } else {
            _ = try? await Self.offPool { keeper.stop() }
        }
        switch keeper.loss {
        case .unreachable(let reason)?:
            throw BridgeServiceError(.journalUnreachable, underlying: LeaseProblem(description: reason))
        case .taken?:
            return leaseLost(held, foundBy: "renewal")
        case nil:
            break
        }
        if let failure = bridge.failure {
            _ = try? await Self.offPool { try held.lease.release(epoch: held.epoch) }
            throw BridgeServiceError(.loopFailed, underlying: failure)
        }
        if shutdownAsked.load(ordering: .relaxed) || Task.isCancelled || Task.isShuttingDownGracefully {
            do {
                try await Self.offPool { try held.lease.release(epoch: held.epoch) }
                logger.notice(
                    "the journal's lease is released: a standby bridge takes over",
                    metadata: ["instance": "\(held.lease.instance)", "epoch": "\(held.epoch)"])
            } catch {
                logger.warning(
                    "the journal's lease could not be released; a standby takes over once it expires (leaseMs)",
                    metadata: ["instance": "\(held.lease.instance)", "error": "\(error)"])
            }
            return .shutDown
        }
        // The loop ended on its own without a failure: it stopped because a commit found the lease lost.
        return leaseLost(held, foundBy: "commit")
    }

    /// Another bridge holds the lease now: one line whichever found it first (the keeper's renewal, or a commit
    /// fenced by the lease's epoch), so that operators and tests wait for one message.
    private func leaseLost(_ held: HeldLease, foundBy finder: String) -> ServeEnd {
        bridge.logger.notice(
            "standby: the journal's lease was lost",
            metadata: ["instance": "\(held.lease.instance)", "epoch": "\(held.epoch)", "foundBy": "\(finder)"])
        return .lostToAnother
    }

    /// Runs a blocking call off Swift's cooperative pool (``OffPool``).
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await OffPool.run(body)
    }
}

/// Why the lease could not be kept, in words.
struct LeaseProblem: Error, CustomStringConvertible {
    let description: String
}
