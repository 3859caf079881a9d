import BridgeCore
import BridgeJournal
import ZeroMQ

/// Blocking calls made from async code (a wait for the bridge's thread, a journal or lease call), each on a
/// thread of its own. On Linux, Swift's cooperative pool and Dispatch's global queue share the same few
/// threads (about one a core): a call that blocks on either holds one of them for as long as it blocks, and
/// a few such waits leave no thread for the tasks that would end them. The threads are the project's one thread
/// primitive's (``LoopThread``), named `off-pool` where the system shows threads.
public enum OffPool {
    /// Runs `body` on a new thread and returns what it returned, or throws what it threw.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            _ = LoopThread.start(name: "off-pool") { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Runs `body`, which cannot fail, on a new thread, and returns what it returned.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            _ = LoopThread.start(name: "off-pool") { continuation.resume(returning: body()) }
        }
    }
}
