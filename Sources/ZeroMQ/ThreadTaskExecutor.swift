import Foundation

/// A task executor with a thread of its own: a task started with it as its preference
/// (`Task(executorPreference:)`) runs even while every thread of Swift's cooperative pool (which Dispatch's
/// global queues share on Linux, ``OffPool``) is held by blocking calls. Jobs run one at a time, in order.
/// ``stop()`` ends the thread once the jobs queued before it have run; a job enqueued after the thread ended
/// (a request failing late, after a shutdown) runs on the thread that enqueues it, so no task is left hanging.
public final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false
    private var ended = false

    /// Starts the executor's thread, named `name`.
    public init(name: String) {
        _ = LoopThread.start(name: name) { [self] in run() }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        guard !ended else {
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
            return
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once the queue is empty.
    public func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
                ended = true
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
