import Foundation

#if canImport(Glibc)
    import Glibc
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
#else
    import Darwin
    private let streamSocket = SOCK_STREAM
#endif

/// A plain TCP server on loopback that answers every connection with text that is not ZeroMQ (an HTTP
/// error, as a web server on a relay's port would) and closes it, noting when each connection came.
final class NotZeroMQServer: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible { let description: String }

    /// `tcp://127.0.0.1:<port>`.
    let endpoint: String
    private let descriptor: Int32
    private let condition = NSCondition()
    private var accepted: [ContinuousClock.Instant] = []
    private var stopped = false

    init(answer: String = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n") throws {
        let descriptor = socket(AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound, listen(descriptor, 128) == 0 else {
            close(descriptor)
            throw Failure(description: "bind a loopback port: \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        endpoint = "tcp://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
        let bytes = Array(answer.utf8)
        let thread = Thread { [self] in serve(bytes) }
        thread.name = "not-zeromq-server"
        thread.start()
    }

    /// Accepts until ``stop()``; the thread closes the listening socket when it leaves, so that it never
    /// accepts on a descriptor number reused meanwhile.
    private func serve(_ answer: [UInt8]) {
        defer { close(descriptor) }
        while true {
            let connection = accept(descriptor, nil, nil)
            condition.lock()
            let done = stopped
            if connection >= 0 && !done { accepted.append(.now) }
            condition.broadcast()
            condition.unlock()
            if connection >= 0 {
                _ = answer.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                close(connection)
            }
            if done || (connection < 0 && errno != EINTR && errno != ECONNABORTED) { return }
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

    /// Stops accepting: the accepting thread wakes and closes the port.
    func stop() {
        condition.lock()
        stopped = true
        condition.unlock()
        shutdown(descriptor, Int32(SHUT_RDWR))
    }
}
