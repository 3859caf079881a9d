import Foundation

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// A plain HTTP/1.1 connection to the bridge's HTTP listener on loopback, over a POSIX socket: what
/// `curl` sees, with no library in between. Blocking; for tests and the benchmark (a Prometheus scraper,
/// a browser following `/events`).
public final class LoopbackHTTP {
    /// Why a connection could not be made or used.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private var descriptor: Int32

    /// Connects to `127.0.0.1:port`; each receive gives up after `timeoutMs`.
    public init(port: Int, timeoutMs: Int) throws {
        guard let descriptor = LoopbackSocket.open() else { throw Failure(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: timeoutMs / 1000, tv_usec: (timeoutMs % 1000) * 1000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard LoopbackSocket.connect(descriptor, port: port) else {
            let code = errno
            LoopbackSocket.close(descriptor)
            throw Failure(description: "connect to 127.0.0.1:\(port) failed (errno \(code))")
        }
        self.descriptor = descriptor
    }

    /// Sends `GET path` with `Host: host` (none when nil); with `closing`, asks the server to close the
    /// connection after its answer.
    public func get(_ path: String, closing: Bool, host: String? = "127.0.0.1") throws {
        let request =
            "GET \(path) HTTP/1.1\r\n" + (host.map { "Host: \($0)\r\n" } ?? "")
            + (closing ? "Connection: close\r\n" : "") + "\r\n"
        try write(request)
    }

    /// Sends `text` as it is (a request written by hand, or part of one).
    public func write(_ text: String) throws {
        guard LoopbackSocket.send(descriptor, text) else {
            throw Failure(description: "send: errno \(errno)")
        }
    }

    /// Receives what has come into `buffer`: the count, 0 once the server closed, negative when the
    /// receive timed out.
    public func receive(into buffer: inout [UInt8]) -> Int {
        recv(descriptor, &buffer, buffer.count, 0)
    }

    /// Everything until the server closes the connection.
    public func receiveAll() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = receive(into: &buffer)
            if count <= 0 { return bytes }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }

    /// Closes the connection (also done when it goes).
    public func close() {
        if descriptor >= 0 { LoopbackSocket.close(descriptor) }
        descriptor = -1
    }

    deinit { close() }
}
