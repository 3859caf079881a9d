import Bridge
import BridgeClient
import BridgeHTTP
import Foundation
import InterApp
import Testing
import ZeroMQ

/// What the HTTP listener takes at most (docs/OPERATIONS.md, "HTTP"): connections, descriptors and idle
/// time, over real sockets, in the shape of the probe that took a bridge down with bare TCP connects.
/// (One at a time: each counts the whole process's descriptors, which the others take by the thousand.)
@Suite("HTTP listener: connection limits", .serialized)
struct HTTPLimitsTests {
    @Test(
        "3,000 idle connects: the listener holds its maximum, a new ZeroMQ client's ping is answered, /healthz once they go"
    )
    func idleConnects() async throws {
        let harness = try BridgeHarness.lanes(.ios)
        var limits = HTTPLimits()
        limits.maxConnections = 50
        limits.idleTimeout = .seconds(120)  // they stay: what is held is the cap's doing, not the timeout's
        let listener = try await RunningListener(bridge: harness.bridge, limits: limits)
        let count = 3000
        try #require(ProcessDescriptors.ensureLimit(ProcessDescriptors.open() + count + 2000))
        var idle: [RawConnection] = []
        for _ in 0..<count { idle.append(try #require(RawConnection(port: listener.port))) }
        // NIO accepts up to 4 at a time: the listener stops when 4 more would not fit.
        #expect(try await Self.waitUntil { Self.gauge(harness, "vivabridge_http_connections") >= 47 })
        try await Task.sleep(for: .milliseconds(500))
        #expect(Self.gauge(harness, "vivabridge_http_connections") <= 50, "never more than its maximum")

        // A new client: its own ZeroMQ context and connection, made while the connects are held.
        let command = harness.bound.command
        let reply = try await HTTPProbe.offPool { try Self.ping(command) }
        #expect(reply?.string("outcome") == "success", "the command socket answers")

        for connection in idle { connection.close() }
        idle.removeAll()
        var health = try? await HTTPProbe.get("/healthz", port: listener.port, timeoutMs: 2000)
        for _ in 0..<50 where health?.status != 200 {
            try await Task.sleep(for: .milliseconds(200))
            health = try? await HTTPProbe.get("/healthz", port: listener.port, timeoutMs: 2000)
        }
        #expect(health?.status == 200, "/healthz answers once the connects are gone")
        #expect(Self.gauge(harness, "vivabridge_http_connections") <= 50)
        await listener.stop()
    }

    @Test("short of descriptors the listener accepts nothing, and takes connections again once they are free")
    func descriptorReserve() async throws {
        let harness = try BridgeHarness.lanes(.ios)
        var limits = HTTPLimits()
        let base = ProcessDescriptors.open()
        // Counted against a limit 2,000 above what is open now, 500 kept: 1,950 more descriptors shut the gate,
        // and keep it shut even when the suites running beside this one close hundreds of theirs meanwhile.
        limits.descriptorLimit = base + 2000
        limits.descriptorReserve = 500
        let listener = try await RunningListener(bridge: harness.bridge, limits: limits)
        try #require(ProcessDescriptors.ensureLimit(base + 4000))
        #expect(try await HTTPProbe.get("/healthz", port: listener.port).status == 200)

        // The bridge's own sockets (files here) take the descriptors: no HTTP connection of the listener's
        // is open, so none will close to reopen the gate.
        var taken: [FileHandle] = []
        for _ in 0..<1950 { taken.append(try #require(FileHandle(forReadingAtPath: "/dev/null"))) }
        // The listener decides before each read of its socket: the read it asked for before the shortage
        // may still take one connection; the next is not read.
        let racing = try #require(RawConnection(port: listener.port))
        #expect(await racing.wrote("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
        _ = await racing.drained(timeoutMs: 1000)
        racing.close()
        let waiting = try #require(RawConnection(port: listener.port))
        #expect(await waiting.wrote("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
        let meanwhile = await waiting.drained(timeoutMs: 1500)
        #expect(meanwhile.bytes.isEmpty, "not accepted while the reserve is short")
        #expect(Self.gauge(harness, "vivabridge_http_connections") == 0)
        // Still a new ZeroMQ client is answered.
        let command = harness.bound.command
        let reply = try await HTTPProbe.offPool { try Self.ping(command) }
        #expect(reply?.string("outcome") == "success")

        for handle in taken { try handle.close() }
        taken.removeAll()
        let answered = await waiting.drained(timeoutMs: 5000)
        let text = String(decoding: answered.bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200"), "taken once descriptors are free: \(text)")
        await listener.stop()
    }

    @Test(
        "the idle timeout closes a connect that sends nothing, a head sent a byte at a time and a kept-alive connection; /events outlives it"
    )
    func idleTimeout() async throws {
        let harness = try BridgeHarness.lanes(.ios)
        var limits = HTTPLimits()
        limits.idleTimeout = .milliseconds(400)
        let listener = try await RunningListener(bridge: harness.bridge, limits: limits)
        let port = listener.port

        let silent = try #require(RawConnection(port: port))
        let started = Date()
        #expect(await silent.drained(timeoutMs: 5000).closed, "a connect that sends nothing is closed")
        #expect(Date().timeIntervalSince(started) < 3)

        let trickle = try #require(RawConnection(port: port))
        let head = Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        let trickleStart = Date()
        var sent = 0
        while Date().timeIntervalSince(trickleStart) < 5, await trickle.wrote(String(head[sent % head.count])) {
            sent += 1
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(Date().timeIntervalSince(trickleStart) < 3, "a head trickled in is cut off, not waited for")

        let kept = try #require(RawConnection(port: port))
        #expect(await kept.wrote("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        let keptAnswer = await kept.drained(timeoutMs: 5000)
        #expect(String(decoding: keptAnswer.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        #expect(keptAnswer.closed, "a kept-alive connection left idle is closed after its answer")

        // A viewer reads nothing for longer than the timeout (no heartbeat comes within it) and stays.
        let viewer = try #require(RawConnection(port: port))
        #expect(await viewer.wrote("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        let first = await viewer.drained(timeoutMs: 1000)
        #expect(String(decoding: first.bytes, as: UTF8.self).contains(#""topic":"lanes""#))
        #expect(!first.closed)
        try await Task.sleep(for: .milliseconds(1200))
        #expect(await !viewer.drained(timeoutMs: 100).closed, "an /events stream is an answer in progress, never idle")
        let command = harness.bound.command
        try await HTTPProbe.offPool {
            try EventStreamTests.send(saleJSON(id: "after-idle", lane: "lane-1", amount: 100), to: command)
        }
        let later = await viewer.drained(timeoutMs: 2000)
        #expect(String(decoding: later.bytes, as: UTF8.self).contains("after-idle"))
        await listener.stop()
    }

    /// A ping from a new client (its own context and connection, as `vivabridge send` makes them); its reply,
    /// nil when none came in 10 s.
    static func ping(_ endpoint: String) throws -> JSONObject? {
        let ping = Array(#"{"id":"new-client","action":"ping"}"#.utf8)
        return try CommandConnection.request(ping, id: "new-client", endpoint: endpoint, waitMs: 10_000)?.object
    }

    static func gauge(_ harness: BridgeHarness, _ name: String) -> Double {
        Scrape(harness.bridge.metrics.render()).value(name)
    }

    static func waitUntil(seconds: Double = 10, _ condition: () -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }
}
