import Foundation

#if canImport(Glibc)
    import Glibc
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
    private let noSignal = Int32(MSG_NOSIGNAL)
#else
    import Darwin
    private let streamSocket = SOCK_STREAM
    private let noSignal: Int32 = 0
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
        let descriptor = socket(AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: timeoutMs / 1000, tv_usec: (timeoutMs % 1000) * 1000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            let code = errno
            _ = closeDescriptor(descriptor)
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
        let bytes = Array(text.utf8)
        guard send(descriptor, bytes, bytes.count, noSignal) == bytes.count else {
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
        if descriptor >= 0 { _ = closeDescriptor(descriptor) }
        descriptor = -1
    }

    deinit { close() }
}

private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.close(descriptor)
    #else
        Darwin.close(descriptor)
    #endif
}
