import Foundation
import ZeroMQ

/// A job for the simulator's loop: `run` on the loop thread, or `cancel` if the loop is gone.
struct ControlJob: Sendable {
    let run: @Sendable (SimulatorLoop) -> Void
    let cancel: @Sendable () -> Void
}

/// The way other threads reach the simulator's loop: a lock-protected queue of jobs, plus an inproc PUSH
/// socket whose one-byte message wakes the loop's poll.
///
/// The PUSH socket is only ever touched with the lock held. libzmq allows a socket to move between threads
/// behind a full memory barrier, which the lock provides, so it still has one user at a time.
final class ControlChannel: @unchecked Sendable {
    /// The inproc endpoint the loop binds its PULL socket to.
    let endpoint: String
    private let lock = NSLock()
    private var jobs: [ControlJob] = []
    private var wake: Socket?
    private var wakePending = false
    private var closed = false

    private static let counter = Counter()

    init() {
        endpoint = "inproc://vivabridge-simulator-control-\(ControlChannel.counter.next())"
    }

    /// Connects the wake-up socket (inproc allows connecting before the loop binds).
    func open(context: Context) throws {
        let socket = try Socket(context, .push)
        try socket.setSendHighWaterMark(0)
        try socket.connect(endpoint)
        lock.lock()
        wake = socket
        lock.unlock()
    }

    /// Queues a job and wakes the loop; false (and the job is not queued) once the channel is closed.
    func post(_ job: ControlJob) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !closed, let wake else { return false }
        jobs.append(job)
        if !wakePending {
            wakePending = true
            _ = try? wake.send([[0]], wait: false)
        }
        return true
    }

    /// Takes every queued job (loop side).
    func take() -> [ControlJob] {
        lock.lock()
        defer { lock.unlock() }
        wakePending = false
        let taken = jobs
        jobs.removeAll()
        return taken
    }

    /// Refuses further jobs, cancels the queued ones and closes the wake-up socket.
    func close() {
        lock.lock()
        closed = true
        let pending = jobs
        jobs.removeAll()
        wake?.close()
        wake = nil
        lock.unlock()
        for job in pending { job.cancel() }
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value
        }
    }
}

/// A value handed from the loop to a waiting thread.
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
