import Foundation
import LoopbackPorts

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// A plain TCP server on a loopback port that answers every connection with text that is not ZeroMQ (an
/// HTTP error, as a web server on a relay's port would) and closes it, noting when each connection came.
final class NotZeroMQServer: @unchecked Sendable {
    /// `tcp://127.0.0.1:<port>`.
    var endpoint: String { port.endpoint }
    private let port: LoopbackPort
    private let condition = NSCondition()
    private var accepted: [ContinuousClock.Instant] = []
    private var stopped = false
    private var serving = true

    init(answer: String = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n") throws {
        port = try LoopbackPort(listening: true)
        // accept wakes every 100 ms to see whether to stop (shutdown wakes it at once on Linux only).
        var wake = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(port.descriptor, SOL_SOCKET, SO_RCVTIMEO, &wake, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array(answer.utf8)
        let thread = Thread { [self] in serve(bytes) }
        thread.name = "not-zeromq-server"
        thread.start()
    }

    /// Accepts until ``stop()``.
    private func serve(_ answer: [UInt8]) {
        defer {
            condition.lock()
            serving = false
            condition.broadcast()
            condition.unlock()
        }
        while true {
            let connection = accept(port.descriptor, nil, nil)
            let failure = connection < 0 ? errno : 0
            condition.lock()
            let done = stopped
            if connection >= 0 && !done { accepted.append(.now) }
            condition.broadcast()
            condition.unlock()
            if connection >= 0 {
                _ = answer.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                close(connection)
            }
            if done { return }
            if connection < 0 && ![EINTR, ECONNABORTED, EAGAIN, EWOULDBLOCK].contains(failure) { return }
        }
    }

    /// When each connection was accepted, so far.
    var acceptTimes: [ContinuousClock.Instant] {
        condition.lock()
        defer { condition.unlock() }
        return accepted
    }

    /// Waits up to `timeout` for a connection accepted at or after `instant`; returns when it came.
    func awaitAccept(after instant: ContinuousClock.Instant, timeout: Duration) -> ContinuousClock.Instant? {
        let deadline = Date().addingTimeInterval(timeout / .seconds(1))
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let found = accepted.first(where: { $0 >= instant }) { return found }
            if !condition.wait(until: deadline) { return accepted.first { $0 >= instant } }
        }
    }

    /// Stops accepting (the accepting thread wakes), waits for the thread to leave, then gives the port
    /// back, so that the thread never accepts on a descriptor number reused meanwhile.
    func stop() {
        condition.lock()
        stopped = true
        condition.unlock()
        shutdown(port.descriptor, Int32(SHUT_RDWR))
        condition.lock()
        while serving { condition.wait() }
        condition.unlock()
        port.release()
    }
}
