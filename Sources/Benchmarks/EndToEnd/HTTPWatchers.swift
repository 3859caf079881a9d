import Bridge
import BridgeClient
import BridgeHTTP
import Foundation
import Logging
import Synchronization

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
        guard let connection = try? LoopbackHTTP(port: port, timeoutMs: 200),
            (try? connection.get("/events", closing: false)) != nil
        else { return }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !stopping.load(ordering: .relaxed) {
            let count = connection.receive(into: &buffer)
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
                if let connection = try? LoopbackHTTP(port: port, timeoutMs: 200),
                    (try? connection.get("/metrics", closing: true)) != nil
                {
                    _ = connection.receiveAll()
                    counts.withLock { $0.scrapes += 1 }
                }
            }
            usleep(50_000)
        }
    }
}
