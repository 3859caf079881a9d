import Foundation
import GRDB
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
        case failed(through: UInt64, problem: String)
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
    init(committer: any JournalCommitter, context: Context, metrics: BridgeMetrics) throws {
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
            if let last = turns.last {
                let started = DispatchTime.now().uptimeNanoseconds
                let report: Report
                do {
                    try committer.commit(turns.map(\.entries))
                    metrics.journalCommit.record(seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
                    report = .committed(through: last.number)
                } catch {
                    report = .failed(through: last.number, problem: "\(error)")
                }
                queue.state.withLock { state in
                    if case .failed = report { state.failed = true }
                    state.reports.append(report)
                }
                _ = try? signal.send([[]], wait: false)
            }
            if stopping, !more { return }
        }
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
