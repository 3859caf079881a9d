import Bridge
import BridgeClient
import BridgeHTTP
import Foundation
import Logging
import Synchronization

/// The HTTP listener of a benchmarked bridge with what docs/PERFORMANCE.md measures it under: a
/// Prometheus scrape of `/metrics` every second and ``viewers`` clients following `/events`, each on a
/// thread of its own reading what arrives (as a browser would). The listener runs from `init` to ``stop()``;
/// the clients come and go with ``attach()`` and ``detach()``, so that one run can alternate with and without.
final class HTTPWatchers: SliceClients, @unchecked Sendable {
    static let viewers = 10

    private let task: Task<Void, any Error>
    private let port: Int
    /// What viewer `index` asks for: `/events`, or with a `topic` filter.
    private let viewerPath: @Sendable (Int) -> String
    private let detaching = Atomic<Bool>(false)
    /// The clients' threads while attached; touched only by the thread that attaches and detaches.
    private var attached = 0
    private let finished = DispatchSemaphore(value: 0)
    private let counts = Mutex<(scrapes: Int, eventBytes: Int)>((0, 0))

    /// Starts the listener for `bridge` on a free loopback port (no client yet); viewer `index` will follow
    /// `viewerPath(index)`.
    init(bridge: Bridge, viewerPath: @escaping @Sendable (Int) -> String) throws {
        self.viewerPath = viewerPath
        let listening = DispatchSemaphore(value: 0)
        let port = Atomic<Int>(0)
        var logger = Logger(label: "vivabridge.bench.http") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .critical  // a cancelled listener logs its children's cancellation as an error
        let listener = HTTPListener(bridge: bridge, address: HTTPAddress(host: "127.0.0.1", port: 0), logger: logger) {
            port.store($0.port, ordering: .relaxed)
            listening.signal()
        }
        task = Task { try await listener.run() }
        guard listening.wait(timeout: .now() + 30) == .success else {
            throw BenchError("the HTTP listener never listened")
        }
        self.port = port.load(ordering: .relaxed)
    }

    /// Starts the scraper and the viewers; returns once each viewer has read its first bytes (its `lanes`
    /// snapshot) or failed, or after 5 s: what joining costs is not what following costs.
    func attach() {
        guard attached == 0 else { return }
        detaching.store(false, ordering: .relaxed)
        let port = port
        let joined = DispatchSemaphore(value: 0)
        for index in 0..<Self.viewers {
            let path = viewerPath(index)
            start("bench-viewer-\(index)") { [self] in follow(path, port: port, joined: joined) }
        }
        start("bench-scraper") { [self] in scrape(port: port) }
        let deadline = DispatchTime.now() + 5
        for _ in 0..<Self.viewers where joined.wait(timeout: deadline) == .timedOut { break }
    }

    /// Stops the scraper and the viewers and waits until their threads have ended.
    func detach() {
        detaching.store(true, ordering: .relaxed)
        for _ in 0..<attached { finished.wait() }
        attached = 0
    }

    /// Detaches the clients and stops the listener; returns how many scrapes were made and how many bytes of
    /// events the viewers read, over every attachment.
    func stop() -> (scrapes: Int, eventBytes: Int) {
        detach()
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

    func finish() -> String {
        let (scrapes, bytes) = stop()
        return "\(scrapes) scrapes of /metrics, \(bytes / 1024) KiB of events read by the viewers"
    }

    private func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        attached += 1
        let finished = finished
        Thread {
            ThreadCPU.nameCurrentThread(name)
            body()
            finished.signal()
        }.start()
    }

    private func follow(_ path: String, port: Int, joined: DispatchSemaphore) {
        var hasJoined = false
        defer { if !hasJoined { joined.signal() } }
        guard let connection = try? LoopbackHTTP(port: port, timeoutMs: 200),
            (try? connection.get(path, closing: false)) != nil
        else { return }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !detaching.load(ordering: .relaxed) {
            let count = connection.receive(into: &buffer)
            if count == 0 { return }
            guard count > 0 else { continue }
            counts.withLock { $0.eventBytes += count }
            if !hasJoined {
                hasJoined = true
                joined.signal()
            }
        }
    }

    private func scrape(port: Int) {
        var next = DispatchTime.now()
        while !detaching.load(ordering: .relaxed) {
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
