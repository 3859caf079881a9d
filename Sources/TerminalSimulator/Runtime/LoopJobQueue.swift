import Foundation
import Synchronization
import ZeroMQ

/// A job for the simulator's loop: `run` on the loop thread, or `cancel` if the loop is gone.
struct LoopJob: Sendable {
    let run: @Sendable (SimulatorLoop) -> Void
    let cancel: @Sendable () -> Void
}

/// The way other threads reach the simulator's loop: a mutex-protected queue of jobs, plus an inproc PUSH
/// socket whose one-byte message wakes the loop's poll.
///
/// The PUSH socket is only ever touched with the mutex held. libzmq allows a socket to move between
/// threads behind a full memory barrier, which the mutex provides, so it still has one user at a time.
final class LoopJobQueue: Sendable {
    /// The inproc endpoint the loop binds its PULL socket to.
    let endpoint: String
    private let queue = Mutex(Queue())

    private struct Queue {
        var jobs: [LoopJob] = []
        var wake: Socket?
        var wakePending = false
        var closed = false
    }

    private static let counter = Atomic<Int>(0)

    init() {
        let number = LoopJobQueue.counter.add(1, ordering: .relaxed).newValue
        endpoint = "inproc://vivabridge-simulator-jobs-\(number)"
    }

    /// Connects the wake-up socket (inproc allows connecting before the loop binds).
    func open(context: Context) throws {
        try queue.withLock { queue in
            let socket = try Socket(context, .push)
            try socket.setSendHighWaterMark(0)
            try socket.connect(endpoint)
            queue.wake = socket
        }
    }

    /// Queues a job and wakes the loop; false (and the job is not queued) once the channel is closed.
    func post(_ job: LoopJob) -> Bool {
        queue.withLock { queue in
            guard !queue.closed, let wake = queue.wake else { return false }
            queue.jobs.append(job)
            if !queue.wakePending {
                queue.wakePending = true
                _ = try? wake.send([[0]], wait: false)
            }
            return true
        }
    }

    /// Takes every queued job (loop side).
    func take() -> [LoopJob] {
        queue.withLock { queue in
            queue.wakePending = false
            let taken = queue.jobs
            queue.jobs.removeAll()
            return taken
        }
    }

    /// Refuses further jobs, cancels the queued ones and closes the wake-up socket.
    func close() {
        let pending = queue.withLock { queue in
            queue.closed = true
            let pending = queue.jobs
            queue.jobs.removeAll()
            queue.wake?.close()
            queue.wake = nil
            return pending
        }
        for job in pending { job.cancel() }
    }
}

/// A value handed from the loop to a waiting thread.
///
/// `@unchecked`: its state is guarded by the `NSCondition` it waits on (a `Mutex` cannot be waited on).
final class ResultBox<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value?
    private var done = false

    /// Stores the value (nil: there will be none) and wakes the waiter.
    func fulfil(_ value: Value?) {
        condition.lock()
        self.value = value
        done = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for ``fulfil(_:)``.
    func wait() -> Value? {
        condition.lock()
        defer { condition.unlock() }
        while !done { condition.wait() }
        return value
    }
}
