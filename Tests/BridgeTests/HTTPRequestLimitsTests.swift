import BridgeHTTP
import Foundation
import Testing

/// What one request may take of the HTTP listener (docs/OPERATIONS.md, "HTTP"): a whole request within the
/// deadline, a body read for a bounded time and number of bytes, over real sockets. A body trickled a byte at
/// a time after a complete head used to hold its connection for as long as it trickled (each byte renewed the
/// idle timer): 128 of them held every connection and `/healthz` answered nothing.
@Suite("HTTP listener: a request's time and body")
struct HTTPRequestLimitsTests {
    static let bodyHead = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\n"

    @Test("a body trickled after a whole head is answered with Connection: close, then cut off after the drain time")
    func trickledBodyIsCutAfterTheDrain() async throws {
        // The drain's own time is what ends it here.
        let held = try await Self.trickledBody(wholeWithin: .seconds(60), drain: .milliseconds(300))
        #expect(held < 3, "closed after the drain time, not held while it trickles (\(held) s)")
    }

    @Test("a request not whole within the deadline is cut off, however long the drain would last")
    func requestDeadlineBoundsTheDrain() async throws {
        // 5 s, not less: on a machine busy with every other suite, the listener can take seconds to read the
        // head, and a deadline that fires first leaves nothing to answer. What is proved is the bound: closed
        // at the deadline, far short of the 60 s drain and of the 30 s the body trickles at most.
        let held = try await Self.trickledBody(wholeWithin: .seconds(5), drain: .seconds(60), trickleAtMost: 30)
        #expect(held < 15, "closed at the deadline, 5 s after it opened, not held while it trickles (\(held) s)")
    }

    @Test("past the most bytes of a body the connection is closed at once")
    func bodyBytesAreBounded() async throws {
        let harness = try BridgeHarness.lanes(.ios)
        var limits = HTTPLimits()
        limits.idleTimeout = .seconds(60)
        limits.bodyDrainTime = .seconds(60)
        limits.maxRequestBodyBytes = 4096
        let listener = try await RunningListener(bridge: harness.bridge, limits: limits)
        let flood = try #require(RawConnection(port: listener.port))
        #expect(await flood.wrote(Self.bodyHead))
        let chunk = String(repeating: "x", count: 1024)
        for _ in 0..<64 { _ = await flood.wrote(chunk) }
        #expect(
            try await HTTPLimitsTests.waitUntil(seconds: 5) {
                HTTPLimitsTests.gauge(harness, "vivabridge_http_connections") == 0
            }, "closed once 4 KiB of its body were read")
        await listener.stop()
    }

    @Test("connections trickling bodies, twice the most the listener holds, leave /healthz answered")
    func tricklersLeaveRoomForHealth() async throws {
        let harness = try BridgeHarness.lanes(.ios)
        var limits = HTTPLimits()
        limits.maxConnections = 8
        limits.idleTimeout = .seconds(60)
        limits.bodyDrainTime = .milliseconds(300)
        let listener = try await RunningListener(bridge: harness.bridge, limits: limits)
        var tricklers: [RawConnection] = []
        for _ in 0..<16 { tricklers.append(try #require(RawConnection(port: listener.port))) }
        for trickler in tricklers { _ = await trickler.wrote(Self.bodyHead) }
        let all = tricklers
        let trickling = Task {
            try await HTTPProbe.offPool {
                let until = Date().addingTimeInterval(6)
                while Date() < until {
                    for trickler in all { trickler.write("x") }
                    usleep(200_000)
                }
            }
        }
        var answered = 0
        for _ in 0..<3 {
            if (try? await HTTPProbe.get("/healthz", port: listener.port, timeoutMs: 3000))?.status == 200 {
                answered += 1
            }
        }
        _ = try await trickling.value
        #expect(answered == 3, "/healthz answered \(answered) of 3 while 16 connections trickled bodies")
        await listener.stop()
    }

    /// A head announcing a body, answered at once with `Connection: close`, then its body a byte every 100 ms,
    /// under these limits: how long the listener held the connection, in seconds (`trickleAtMost` at most).
    static func trickledBody(wholeWithin: Duration, drain: Duration, trickleAtMost: Double = 5) async throws -> Double {
        let harness = try BridgeHarness.lanes(.ios)
        var limits = HTTPLimits()
        limits.idleTimeout = wholeWithin
        limits.bodyDrainTime = drain
        let listener = try await RunningListener(bridge: harness.bridge, limits: limits)
        let trickle = try #require(RawConnection(port: listener.port))
        #expect(await trickle.wrote(Self.bodyHead))
        let answer = try HTTPProbe.parse(await trickle.drained(until: "}\n", timeoutMs: 5000).bytes)
        #expect(answer.status == 200, "answered at once: \(answer.body)")
        #expect(answer.headers["connection"] == "close")
        let held = await Self.heldWhileTrickling(trickle, harness: harness, atMost: trickleAtMost)
        await listener.stop()
        return held
    }

    /// Sends one byte of body every 100 ms until the listener no longer counts the connection (`atMost`
    /// seconds at most); how long it held it, in seconds.
    static func heldWhileTrickling(_ connection: RawConnection, harness: BridgeHarness, atMost: Double) async -> Double
    {
        let started = Date()
        while Date().timeIntervalSince(started) < atMost,
            HTTPLimitsTests.gauge(harness, "vivabridge_http_connections") > 0
        {
            _ = await connection.wrote("x")
            try? await Task.sleep(for: .milliseconds(100))
        }
        return Date().timeIntervalSince(started)
    }
}
