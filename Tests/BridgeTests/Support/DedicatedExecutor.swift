import Dispatch

/// A task executor of a serial queue of its own: a task started with it as its preference
/// (`Task(executorPreference:)`) runs even while the tests around it hold every thread of Swift's
/// cooperative pool with blocking calls (an in-process ``BridgeService`` would otherwise wait behind them).
final class DedicatedExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
