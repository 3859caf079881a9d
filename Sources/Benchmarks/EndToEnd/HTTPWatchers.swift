import Bridge
import BridgeHTTP
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The HTTP listener of a benchmarked bridge with what docs/PERFORMANCE.md measures it under: a
/// Prometheus scrape of `/metrics` every second and ``viewers`` clients following `/events`, each on a
/// thread of its own reading what arrives (as a browser would), until ``stop()``.
final class HTTPWatchers: @unchecked Sendable {
    static let viewers = 10

    private let task: Task<Void, any Error>
    private let stopping = Atomic<Bool>(false)
    private var threads: [Thread] = []
    private let finished = DispatchSemaphore(value: 0)
    private let counts = Mutex<(scrapes: Int, eventBytes: Int)>((0, 0))

    /// Starts the listener for `bridge` on a free loopback port, then the scraper and the viewers.
    init(bridge: Bridge) throws {
        let listening = DispatchSemaphore(value: 0)
        let port = Atomic<Int>(0)
        var logger = Logger(label: "vivabridge.bench.http") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .error
        let listener = HTTPListener(bridge: bridge, address: HTTPAddress(host: "127.0.0.1", port: 0), logger: logger) {
            port.store($0.port, ordering: .relaxed)
            listening.signal()
        }
        task = Task { try await listener.run() }
        guard listening.wait(timeout: .now() + 30) == .success else {
            throw BenchError("the HTTP listener never listened")
        }
        let bound = port.load(ordering: .relaxed)
        for index in 0..<Self.viewers {
            threads.append(Thread { [self] in follow(port: bound) })
            threads[index].name = "bench-viewer-\(index)"
        }
        threads.append(Thread { [self] in scrape(port: bound) })
        for thread in threads { thread.start() }
    }

    /// Stops the clients and the listener; returns how many scrapes were made and how many bytes of
    /// events the viewers read.
    func stop() -> (scrapes: Int, eventBytes: Int) {
        guard !stopping.exchange(true, ordering: .relaxed) else { return counts.withLock { $0 } }
        for _ in threads { finished.wait() }
        task.cancel()
        let done = DispatchSemaphore(value: 0)
        let task = task
        Task {
            _ = await task.result
            done.signal()
        }
        done.wait()
        return counts.withLock { $0 }
    }

    private func follow(port: Int) {
        defer { finished.signal() }
        guard let fd = Self.connect(port: port) else { return }
        defer { close(fd) }
        guard Self.send(fd, "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") else { return }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !stopping.load(ordering: .relaxed) {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { return }
            if count > 0 { counts.withLock { $0.eventBytes += count } }
        }
    }

    private func scrape(port: Int) {
        defer { finished.signal() }
        var next = DispatchTime.now()
        while !stopping.load(ordering: .relaxed) {
            if DispatchTime.now() >= next {
                next = next + .seconds(1)
                if let fd = Self.connect(port: port) {
                    if Self.send(fd, "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n") {
                        var buffer = [UInt8](repeating: 0, count: 65536)
                        while recv(fd, &buffer, buffer.count, 0) > 0 {}
                        counts.withLock { $0.scrapes += 1 }
                    }
                    close(fd)
                }
            }
            usleep(50_000)
        }
    }

    private static func connect(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    private static func send(_ fd: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return Glibc.send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count
    }
}
