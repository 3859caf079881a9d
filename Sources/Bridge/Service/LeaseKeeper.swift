import BridgeCore
import BridgeJournal
import Dispatch
import Foundation
import Synchronization
import ZeroMQ

/// Keeps the journal's lease while the bridge is active: renews it every quarter of `leaseMs` on a thread of
/// its own, and reports, once, when it is lost.
///
/// The lease counts as lost when a renewal finds it taken, or when no renewal succeeded in time: at the
/// monotonic time the last successful renewal (or the acquisition) was *sent*, plus `leaseMs - leaseMs/8`.
/// The database judges expiry from when it ran the statement, later than it was sent, so the holder stops
/// before any other bridge can take over. A second thread checks that deadline on its own, so a renewal stuck
/// on a dead connection does not keep the bridge serving.
final class LeaseKeeper: Sendable {
    /// Why the lease was lost.
    enum Loss: Sendable, Equatable {
        /// Another bridge took it (a renewal found a newer epoch).
        case taken
        /// No renewal got through in time: the database could not be reached (`reason` says what failed).
        case unreachable(reason: String)
    }

    let lease: any JournalLeasing
    let epoch: Int
    private let onLoss: @Sendable (Loss) -> Void
    private let onExtended: @Sendable (UInt64) -> Void
    private let validUntilNs: Atomic<UInt64>
    private let lastProblem = Mutex<String?>(nil)
    private let lost = Mutex<Loss?>(nil)
    private let stopped = Atomic<Bool>(false)
    /// Signalled once for each thread by ``stop()``; each thread signals ``ended`` as it returns.
    private let wake = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    /// Keeps the lease of `epoch` acquired by a statement sent at `acquiredSentNs` (monotonic nanoseconds).
    /// `onLoss` is called once, from the keeper's thread or its timer, when the lease is lost; `onExtended` with
    /// the lease's deadline (monotonic nanoseconds) now and after each renewal, for readers that must not
    /// trust the lease past it (``LiveState``).
    init(
        lease: any JournalLeasing, epoch: Int, acquiredSentNs: UInt64,
        onExtended: @escaping @Sendable (UInt64) -> Void = { _ in },
        onLoss: @escaping @Sendable (Loss) -> Void
    ) {
        self.lease = lease
        self.epoch = epoch
        self.onLoss = onLoss
        self.onExtended = onExtended
        let validUntil = acquiredSentNs + Self.validNs(lease.leaseMs)
        validUntilNs = Atomic(validUntil)
        onExtended(validUntil)
    }

    /// How long after a renewal was sent the holder still counts on its lease.
    static func validNs(_ leaseMs: Int) -> UInt64 { UInt64(leaseMs - leaseMs / 8) * 1_000_000 }

    /// Why the lease was lost, once it was.
    var loss: Loss? { lost.withLock { $0 } }

    /// Starts renewing, and watching the deadline.
    func start() {
        // Ended through `ended`, not joined: ``stop(waiting:)`` may leave a renewal hung on a dead connection.
        _ = LoopThread.start(name: "lease-renew") { [self] in
            renewUntilStopped()
            ended.signal()
        }
        _ = LoopThread.start(name: "lease-deadline") { [self] in
            let checkMs = max(25, lease.leaseMs / 32)
            while !stopped.load(ordering: .acquiring) {
                _ = wake.wait(timeout: .now() + .milliseconds(checkMs))
                if !stopped.load(ordering: .acquiring) { checkDeadline() }
            }
            ended.signal()
        }
    }

    /// Stops renewing (before the lease is released or given up); with `waiting`, waits for the threads, at
    /// most until a renewal in progress ends (so that none extends a lease released after it).
    func stop(waiting: Bool = true) {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        wake.signal()
        guard waiting else { return }
        ended.wait()
        ended.wait()
    }

    private func renewUntilStopped() {
        let intervalMs = lease.leaseMs / 4
        while !stopped.load(ordering: .acquiring) {
            _ = wake.wait(timeout: .now() + .milliseconds(intervalMs))
            guard !stopped.load(ordering: .acquiring), loss == nil else { continue }
            let sent = DispatchTime.now().uptimeNanoseconds
            do {
                if try lease.renew(epoch: epoch) {
                    let validUntil = sent + Self.validNs(lease.leaseMs)
                    validUntilNs.store(validUntil, ordering: .releasing)
                    onExtended(validUntil)
                    lastProblem.withLock { $0 = nil }
                } else {
                    report(.taken)
                }
            } catch {
                lastProblem.withLock { $0 = "\(error)" }
            }
            checkDeadline()
        }
    }

    private func checkDeadline() {
        guard DispatchTime.now().uptimeNanoseconds >= validUntilNs.load(ordering: .acquiring) else { return }
        let reason =
            lastProblem.withLock { $0 }
            ?? "no renewal answered within the lease: the database did not answer, or this process was paused"
        report(.unreachable(reason: reason))
    }

    private func report(_ loss: Loss) {
        let first = lost.withLock { lost -> Bool in
            guard lost == nil else { return false }
            lost = loss
            return true
        }
        if first { onLoss(loss) }
    }
}
