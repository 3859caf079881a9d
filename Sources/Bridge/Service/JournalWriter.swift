import BridgeCore
import BridgeJournal
import Foundation
import Synchronization
import ZeroMQ

/// The journal's writer: a thread of its own that commits the turns the loop hands it, every turn
/// queued at that moment in one transaction (group commit), and tells the loop which turns are in.
///
/// The loop goes on reading while a commit runs; what a turn sends, replies and publishes waits in the
/// loop until the writer says the turn is committed, so nothing leaves before the journal holds it
/// (docs/RELIABILITY.md). Under load, turns queue while a commit runs and the next commit takes them all:
/// many sales share one transaction, and with `journalSync: full` one `fsync`.
///
/// After a commit fails, the writer commits nothing more: the turns queued behind the failed ones are
/// reported failed too, without being tried, until the loop has taken the failure (``takeFailure()``).
/// The loop then handles them all as it handles a failed write (``BridgeLoop/journalWriteFailed``).
final class JournalWriter {
    /// What the writer reports to the loop.
    enum Report: Sendable, Equatable {
        /// Every turn up to and including this one is committed.
        case committed(through: UInt64)
        /// The turns from the last report on, through this one, are not committed (the first failure).
        case failed(through: UInt64, problem: WriteProblem)
    }

    /// Why a commit failed: the error's text for logs and events, and whether it was the lease fencing it
    /// (``JournalError/Code/leaseLost``: another bridge may serve now), told by the error's type, never its text.
    struct WriteProblem: Sendable, Equatable, CustomStringConvertible {
        /// The error, as a person reads it.
        let description: String
        /// The journal's lease is no longer this bridge's: nothing more may leave it.
        let leaseLost: Bool

        init(_ error: any Error) {
            description = "\(error)"
            leaseLost = (error as? JournalError)?.code == .leaseLost
        }
    }

    private struct Turn {
        let number: UInt64
        let entries: [JournalEntry]
    }

    private struct Shared {
        var queued: [Turn] = []
        var reports: [Report] = []
        /// Set by a failed commit: nothing is committed until the loop took the failure.
        var failed = false
        var stopping = false
    }

    /// What the loop and the writer's thread share.
    private final class Queue: Sendable {
        let state = Mutex(Shared())
        let work = DispatchSemaphore(value: 0)
    }

    private let queue = Queue()
    /// The journal's connection for commits: the writer's thread's, and the caller's in ``commitHere(turn:entries:)``.
    private let committer: any JournalCommitter
    private let metrics: BridgeMetrics
    /// Whether a small turn with nothing ahead of it is better committed by the loop itself
    /// (``commitHere(turn:entries:)``): a local commit that does not wait for the disk (SQLite, `normal`).
    /// One that waits (`full`, PostgreSQL) stays on the writer's thread, so that the loop goes on reading.
    let commitsHere: Bool
    /// The most turns one transaction takes: a commit after a stall (a checkpoint, a slow disk) stays small
    /// enough that its memory (the entries, SQLite's dirty pages) does not set a high-water mark the process
    /// keeps.
    static let maxTurnsPerCommit = 256
    private var thread: LoopThread?
    /// The loop's end of the wake-up pair: readable when the writer has reported something.
    let wake: Socket

    /// Starts the writer on `committer`, the journal's connection for it (with SQLite, a connection of its
    /// own, so that the loop's reads never wait for a commit: WAL readers and the writer do not block each other). It wakes the loop
    /// through `wake`, an inproc PAIR the loop polls.
    init(committer: any JournalCommitter, commitsHere: Bool = false, context: Context, metrics: BridgeMetrics) throws {
        self.committer = committer
        self.commitsHere = commitsHere
        self.metrics = metrics
        let endpoint = "inproc://vivabridge-journal-writer-\(UUID().uuidString)"
        wake = try Socket(context, .pair)
        try wake.bind(endpoint)
        let queue = queue
        let (thread, _) = try LoopThread.start(name: "journal-writer") { () throws -> (loop: Socket, report: Void) in
            let signal = try Socket(context, .pair)
            try signal.connect(endpoint)
            return (signal, ())
        } run: { signal in
            Self.run(committer: committer, queue: queue, signal: signal, metrics: metrics)
            signal.close()
            // Closed here, before `stop()` returns: a connection left to close later would take the file's
            // lock while the next user (a restart, a journal command) opens it.
            committer.close()
        }
        self.thread = thread
    }

    private static func run(
        committer: any JournalCommitter, queue: Queue, signal: Socket, metrics: BridgeMetrics
    ) {
        var more = false
        while true {
            if !more { queue.work.wait() }
            let (turns, stopping, left) = queue.state.withLock { state -> ([Turn], Bool, Bool) in
                if state.failed {
                    state.queued.removeAll(keepingCapacity: true)
                    return ([], state.stopping, false)
                }
                let count = min(state.queued.count, Self.maxTurnsPerCommit)
                let taken = Array(state.queued.prefix(count))
                state.queued.removeFirst(count)
                return (taken, state.stopping, !state.queued.isEmpty)
            }
            more = left
            if let last = turns.last,
                let report = report(
                    through: last.number, metrics: metrics,
                    {
                        try committer.commit(turns.map(\.entries))
                        return true
                    })
            {
                queue.state.withLock { state in
                    if case .failed = report { state.failed = true }
                    state.reports.append(report)
                }
                _ = try? signal.send([[]], wait: false)
            }
            if stopping, !more { return }
        }
    }

    /// Runs `commit`, timed; what to report of turn `number`, the last it wrote: committed, failed, or nil
    /// when `commit` wrote nothing (it returned false: the journal was busy).
    private static func report(
        through number: UInt64, metrics: BridgeMetrics, _ commit: () throws -> Bool
    ) -> Report? {
        let started = DispatchTime.now().uptimeNanoseconds
        do {
            guard try commit() else { return nil }
            metrics.journalCommit.record(seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
            return .committed(through: number)
        } catch {
            return .failed(through: number, problem: WriteProblem(error))
        }
    }

    /// Commits turn `number`'s entries on the calling thread, now, and says how it went; nil when another
    /// connection holds the journal's write lock (a checkpoint's restart, a journal command): nothing was
    /// written or waited for, and the turn is for ``submit(turn:entries:)``, whose thread waits for the
    /// lock. Only while the writer's thread has nothing of the caller's: every turn submitted before was
    /// reported and taken (``takeReports()``), so that thread does not touch the connection (it reports
    /// after its commit, under the lock the caller reads the report under). A failure is the caller's to
    /// handle, as a reported one; nothing is queued behind it.
    ///
    /// A commit handed to the thread costs two thread wake-ups (the thread's, then the loop's), each tens
    /// of µs on a machine whose idle cores halt: one sale at a time, they are most of what the journal
    /// adds to a reply (docs/PERFORMANCE.md 6.10).
    func commitHere(turn number: UInt64, entries: [JournalEntry]) -> Report? {
        Self.report(through: number, metrics: metrics) { try committer.commitUnlessBusy([entries]) }
    }

    /// Queues turn `number`'s entries for the next commit. Turns are handed in increasing order.
    func submit(turn number: UInt64, entries: [JournalEntry]) {
        queue.state.withLock { $0.queued.append(Turn(number: number, entries: entries)) }
        queue.work.signal()
    }

    /// What the writer reported since the last call, oldest first. Reads the wake-up pair until a receive
    /// finds nothing; `wakeDrained` says it did (false when a receive failed), for
    /// ``ReadyPoller/drained(_:)``.
    func takeReports() -> (reports: [Report], wakeDrained: Bool) {
        var wakeDrained = false
        do {
            while try wake.receive(wait: false) != nil {}
            wakeDrained = true
        } catch {}
        let reports = queue.state.withLock { state in
            defer { state.reports.removeAll(keepingCapacity: true) }
            return state.reports
        }
        return (reports, wakeDrained)
    }

    /// After a ``Report/failed(through:problem:)``: drops the turns queued behind the failed ones (the loop
    /// handles them as failed, with it) and lets the writer commit again.
    func takeFailure() {
        queue.state.withLock { state in
            state.queued.removeAll()
            state.failed = false
        }
    }

    /// Drops what is queued and not yet taken by a commit (the loop gave up waiting at its end: what it
    /// will not carry out must not be journaled as if it had left).
    func discardQueued() {
        queue.state.withLock { $0.queued.removeAll() }
    }

    /// Commits what is queued, then ends the thread; returns when it has ended. Idempotent.
    func stop() {
        guard let thread else { return }
        self.thread = nil
        queue.state.withLock { $0.stopping = true }
        queue.work.signal()
        thread.join()
        wake.close()
    }

    deinit { stop() }
}
