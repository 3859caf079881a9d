import Foundation
import Synchronization

/// A loop on a thread of its own (a server's poll loop, the ``ZAPHandler``'s, a background worker's).
/// The one home of their thread plumbing: the set-up runs on the new thread (so that its sockets belong
/// to it from the start), its outcome is handed to the thread that started it, and the loop's end can be
/// awaited from any thread, any number of times.
///
/// ```swift
/// let (thread, endpoint) = try LoopThread.start(name: "server") {
///     let loop = try ServerLoop(context: context)   // on the new thread: binds its sockets
///     return (loop, loop.boundEndpoint)             // `start` returns the endpoint
/// } run: { loop in
///     loop.run()                                    // then the thread goes on with the loop
/// }
/// thread.join()
/// ```
public final class LoopThread: Sendable {
    private let finished = DispatchSemaphore(value: 0)

    private init() {}

    /// Starts a thread named `name` that runs `setUp`, then `run` with the loop it made.
    ///
    /// Returns once `setUp` has returned, with its report. When `setUp` throws, the thread ends and
    /// `start` throws the same error after it has ended: nothing of a failed start keeps running.
    public static func start<Loop, Report: Sendable, Failure: Error>(
        name: String,
        setUp: @escaping @Sendable () throws(Failure) -> (loop: Loop, report: Report),
        run: @escaping @Sendable (Loop) -> Void
    ) throws(Failure) -> (thread: LoopThread, report: Report) {
        let thread = LoopThread()
        let started = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Report, Failure>?>(nil)
        let finished = thread.finished
        let body = Thread {
            defer { finished.signal() }
            nameKernelThread(name)
            let loop: Loop
            do throws(Failure) {
                let made = try setUp()
                loop = made.loop
                outcome.withLock { $0 = .success(made.report) }
                started.signal()
            } catch {
                outcome.withLock { $0 = .failure(error) }
                started.signal()
                return
            }
            run(loop)
        }
        body.name = name
        body.start()
        started.wait()
        switch outcome.withLock({ $0 })! {
        case .success(let report):
            return (thread, report)
        case .failure(let error):
            thread.join()
            throw error
        }
    }

    /// Starts a thread named `name` that runs `body` and needs no set-up.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) -> LoopThread {
        let (thread, _) = start(name: name, setUp: { () -> (loop: Void, report: Void) in ((), ()) }, run: { body() })
        return thread
    }

    /// Waits until the thread has ended. Any thread may call it, any number of times.
    public func join() {
        finished.wait()
        finished.signal()
    }
}

/// Gives the calling thread `name` (its first 15 bytes) where the system shows it: `top -H`, `ps -L`,
/// `perf`, `/proc/<pid>/task/*/comm`. Foundation's `Thread.name` does not reach the kernel on Linux.
private func nameKernelThread(_ name: String) {
    try? String(name.utf8.prefix(15))?.write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
}
