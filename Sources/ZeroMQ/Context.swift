import CZeroMQ
import Synchronization

/// A libzmq context: the owner of I/O threads and of every socket made from it.
///
/// A context is thread-safe and may be shared. ``shutdown()`` makes blocking calls on its sockets fail
/// with `ETERM`; ``terminate()`` waits until every socket is closed. Sockets are created with a linger of
/// zero by default, so termination never waits on unsent messages.
///
/// `@unchecked` only for the raw handle: libzmq documents a context as thread-safe.
public final class Context: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer
    private let terminated = Mutex(false)

    /// Creates a context with `ioThreads` I/O threads and room for `maxSockets` sockets.
    public init(ioThreads: Int32 = 1, maxSockets: Int32 = 4096) throws(ZMQError) {
        guard let raw = zmq_ctx_new() else { throw ZMQError.last("zmq_ctx_new") }
        handle = raw
        try check(zmq_ctx_set(raw, ZMQ_IO_THREADS, ioThreads), "set ZMQ_IO_THREADS")
        try check(zmq_ctx_set(raw, ZMQ_MAX_SOCKETS, maxSockets), "set ZMQ_MAX_SOCKETS")
    }

    /// The libzmq handle of a context not yet terminated; `ETERM` after ``terminate()``, for libzmq has
    /// freed it then.
    func liveHandle(_ operation: @autoclosure () -> String) throws(ZMQError) -> UnsafeMutableRawPointer {
        guard !terminated.withLock({ $0 }) else { throw ZMQError(code: ETERM, operation: operation()) }
        return handle
    }

    /// Makes every blocking call on this context's sockets return `ETERM`, without waiting.
    public func shutdown() {
        terminated.withLock { if !$0 { _ = zmq_ctx_shutdown(handle) } }
    }

    /// Terminates the context; returns once every socket made from it has been closed.
    public func terminate() {
        let shouldTerminate = terminated.withLock { terminated -> Bool in
            if terminated { return false }
            terminated = true
            return true
        }
        guard shouldTerminate else { return }
        while zmq_ctx_term(handle) == -1 && zmq_errno() == EINTR {}
    }

    deinit { terminate() }
}
