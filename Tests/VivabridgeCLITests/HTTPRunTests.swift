import BridgeClient
import Foundation
import Testing
import ZeroMQ

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `vivabridge run` with its HTTP listener: the embedded default turns it on, VIVABRIDGE_HTTP moves it,
/// a port in use ends the start naming the key.
@Suite("vivabridge run: the HTTP listener")
struct HTTPRunTests {
    @Test("the embedded default serves /healthz and /readyz where VIVABRIDGE_HTTP says, and stops on SIGTERM")
    func embeddedDefault() throws {
        let run = try DefaultRun(http: "127.0.0.1:0")
        defer { run.remove() }
        let child = run.child
        let line = try #require(
            child.waitForLine(containing: "vivabridge http: "), "no HTTP line: \(child.errorOutput)")
        let url = try #require(line.split(separator: " ").dropFirst(2).first.map(String.init))
        #expect(child.waitForLine(containing: "commands (ROUTER):") != nil)
        #expect(url.hasPrefix("http://127.0.0.1:") && !url.hasSuffix(":9556/"))
        // Liveness: the loop turned in the last 5 s. A loop starved of a core that long (the whole suite runs
        // beside it) is answered 503 `stalled` until it turns again.
        var health = try Self.get(url + "healthz")
        for _ in 0..<100 where health.status != 200 {
            Thread.sleep(forTimeInterval: 0.1)
            health = try Self.get(url + "healthz")
        }
        #expect(health.status == 200, "\(health.body)")
        #expect(health.body.contains(#""status":"ok""#))
        var ready = try Self.get(url + "readyz")
        for _ in 0..<100 where !ready.body.contains(#""lane-3":"up""#) {
            Thread.sleep(forTimeInterval: 0.1)
            ready = try Self.get(url + "readyz")
        }
        #expect(ready.status == 200)
        #expect(ready.body.hasPrefix(#"{"role":"active","instance":""#))
        #expect(ready.body.contains(#""lanes":{"lane-1":"up","lane-2":"up","lane-3":"up","lane-4":"up"}"#))
        // The listener quietens its own logger only: the process still logs at info (v1.1 went silent).
        #expect(child.waitForErrorLine(containing: "http listening", timeout: 5) != nil, "\(child.errorOutput)")
        #expect(child.waitForErrorLine(containing: "bridge listening", timeout: 5) != nil)
        #expect(child.waitForErrorLine(containing: "lane link up", timeout: 5) != nil)
        child.signal(SIGTERM)
        #expect(child.waitForExit(timeout: 20) == 0)
        #expect(child.errorOutput.contains("bridge stopped"), "logged after the listener had started")
    }

    @Test(
        "3,000 bare connects to the HTTP port of a bridge with 256 descriptors: a new client's ping is answered, /healthz once they go"
    )
    func idleConnectsAtTheDescriptorLimit() throws {
        let run = try DefaultRun(http: "127.0.0.1:0")
        defer { run.remove() }
        let child = run.child
        defer {
            child.signal(SIGKILL)
            _ = child.waitForExit(timeout: 20)
        }
        let line = try #require(child.waitForLine(containing: "vivabridge http: "), "\(child.errorOutput)")
        let url = try #require(line.split(separator: " ").dropFirst(2).first.map(String.init))
        let port = try #require(Int(url.split(separator: ":").last?.dropLast() ?? ""))
        let commandLine = try #require(child.waitForLine(containing: "commands (ROUTER):"))
        let command = try #require(commandLine.split(separator: " ").last.map(String.init))
        #expect(child.waitForErrorLine(containing: "lane link up") != nil)
        // The probe's machine: the bridge's soft descriptor limit well under the connects aimed at it.
        var limit = rlimit(rlim_cur: 256, rlim_max: 256)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        typealias SetLimit =
            @convention(c) (
                pid_t, Int32, UnsafePointer<rlimit>?, UnsafeMutablePointer<rlimit>?
            ) -> Int32
        let prlimit = unsafeBitCast(try #require(dlsym(nil, "prlimit")), to: SetLimit.self)
        try #require(
            prlimit(child.process.processIdentifier, resource, &limit, nil) == 0,
            "prlimit: errno \(errno)")
        var own = rlimit()
        _ = getrlimit(resource, &own)
        if own.rlim_cur < 5000, own.rlim_max >= 5000 {
            own.rlim_cur = 5000
            _ = setrlimit(resource, &own)
        }

        var idle: [Int32] = []
        defer { for descriptor in idle { close(descriptor) } }
        for _ in 0..<3000 {
            guard let descriptor = LoopbackSocket.open(nonBlocking: true) else { break }
            LoopbackSocket.connect(descriptor, port: port)
            idle.append(descriptor)
        }
        #expect(idle.count == 3000)
        Thread.sleep(forTimeInterval: 1)

        // A new client (its own context and connection), answered well within the listener's idle timeout
        // (10 s), which would free the descriptors by itself.
        let ping = Array(#"{"id":"while-flooded","action":"ping"}"#.utf8)
        let reply = try CommandConnection.request(ping, id: "while-flooded", endpoint: command, waitMs: 3000)
            .map { String(decoding: $0.bytes, as: UTF8.self) }
        #expect(reply?.contains(#""outcome":"success""#) == true, "a new client's ping: \(reply ?? "no reply")")

        for descriptor in idle { close(descriptor) }
        idle.removeAll()
        var health = try? Self.get(url + "healthz")
        for _ in 0..<50 where health?.status != 200 {
            Thread.sleep(forTimeInterval: 0.2)
            health = try? Self.get(url + "healthz")
        }
        #expect(health?.status == 200, "/healthz once the connects are gone")
        let metrics = try Self.get(url + "metrics")
        #expect(metrics.body.contains("vivabridge_http_connections "), "the gauge is scraped")
        #expect(child.errorOutput.contains("http: new connections wait until one closes"), "and it said so")
    }

    @Test("an HTTP port in use ends the start with exit 1 and a line naming http and VIVABRIDGE_HTTP")
    func portInUse() throws {
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(holder, pointer, length) == 0 && listen(holder, 1) == 0
                    && getsockname(holder, pointer, &length) == 0
            }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let run = try DefaultRun(http: "127.0.0.1:\(port)")
        defer { run.remove() }
        let child = run.child
        #expect(child.waitForExit(timeout: 20) == 1)
        #expect(
            child.errorOutput.contains(
                "http: 127.0.0.1:\(port): address already in use; set \"http\" or VIVABRIDGE_HTTP"),
            "\(child.errorOutput)")
    }

    /// A blocking GET; status and body.
    static func get(_ url: String) throws -> (status: Int, body: String) {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        URLSession.shared.dataTask(with: URL(string: url)!) { data, response, error in
            box.set(
                (
                    (response as? HTTPURLResponse)?.statusCode ?? 0,
                    data.map { String(decoding: $0, as: UTF8.self) } ?? "\(String(describing: error))"
                ))
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 10) == .success, let result = box.get() else { throw URLError(.timedOut) }
        return result
    }
}

private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (Int, String)?
    func set(_ value: (Int, String)) {
        lock.lock()
        self.value = value
        lock.unlock()
    }
    func get() -> (Int, String)? {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
