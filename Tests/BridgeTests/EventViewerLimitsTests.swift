import Bridge
import BridgeClient
import BridgeHTTP
import Foundation
import Synchronization
import Testing

/// `/events` viewers that never read have a total cap (docs/OPERATIONS.md, "/events and the lanes page"):
/// at most so many viewers, at most so many bytes waiting across them; the slowest is dropped first, with
/// a last SSE comment, and what waited for it is freed.
@Suite("HTTP listener: /events viewer limits")
struct EventViewerLimitsTests {
    @Test("past the most viewers one more is answered 503 and counted; a place that frees is taken again")
    func mostViewers() async throws {
        let harness = try BridgeHarness.lanes(.ios)
        var limits = HTTPLimits()
        limits.maxViewers = 2
        let listener = try await RunningListener(bridge: harness.bridge, limits: limits)
        let first = try await Self.viewer(port: listener.port)
        let second = try await Self.viewer(port: listener.port)
        let refused = try await HTTPProbe.get("/events", port: listener.port)
        #expect(refused.status == 503)
        #expect(refused.body.contains("2 viewers are following /events, the most taken"), "\(refused.body)")
        #expect(Scrape(harness.bridge.metrics.render()).value("vivabridge_http_viewers_refused_total") == 1)
        #expect(Scrape(harness.bridge.metrics.render()).value("vivabridge_http_viewers") == 2)
        first.close()
        // The listener notices the closed viewer at its next write (a heartbeat at the latest).
        #expect(try await HTTPLimitsTests.waitUntil { harness.bridge.tap.viewers == 1 })
        let third = try await Self.viewer(port: listener.port)
        _ = (second, third)
        await listener.stop()
    }

    @Test(
        "8 viewers with their own filters that never read: the bytes waiting stay within the cap, the slowest are dropped with a last comment, a reading viewer goes on, all is freed"
    )
    func stalledViewers() async throws {
        let harness = try BridgeHarness.lanes(.ios)
        var limits = HTTPLimits()
        limits.maxViewerBytes = 1 << 20  // well above one gathering window's write, as in a store
        limits.viewerCloseGrace = .seconds(60)  // time to read what is left; the next test sees the close
        let listener = try await RunningListener(bridge: harness.bridge, limits: limits)
        var stalled: [RawConnection] = []
        for index in 0..<8 {
            stalled.append(
                try await Self.viewer(
                    port: listener.port, path: "/events?topic=lane-1.&topic=other-\(index).",
                    receiveBuffer: Self.receiveBuffer))
        }
        let reader = try FollowingViewer(port: listener.port)
        #expect(try await HTTPLimitsTests.waitUntil { harness.bridge.tap.viewers == 9 })

        // Sales until every stalled viewer is dropped, on a thread of their own (the listener needs
        // Swift's cooperative threads meanwhile).
        let box = Unchecked(harness)
        let (sales, most) = try await HTTPProbe.offPool { () throws -> (Int, Double) in
            let harness = box.value
            var most = 0.0
            var sales = 0
            while sales < 20_000 {
                _ = try harness.call(saleJSON(id: "s-\(sales)", lane: "lane-1", amount: 100 + sales % 50))
                sales += 1
                let scrape = Scrape(harness.bridge.metrics.render())
                most = max(most, scrape.value("vivabridge_http_viewer_buffered_bytes"))
                if scrape.value("vivabridge_http_viewers_dropped_total") == 8 { break }
            }
            return (sales, most)
        }
        let scrape = Scrape(harness.bridge.metrics.render())
        #expect(scrape.value("vivabridge_http_viewers_dropped_total") == 8, "after \(sales) sales")
        #expect(most <= Double(1 << 20) + 8 * 256, "the bytes waiting never went past the cap (most: \(most))")
        #expect(
            try await HTTPLimitsTests.waitUntil {
                Scrape(harness.bridge.metrics.render()).value("vivabridge_http_viewers") == 1
            }, "the reading viewer alone follows")
        #expect(harness.bridge.tap.viewers == 1, "the loop no longer builds events for the dropped")

        let command = harness.bound.command
        try await HTTPProbe.offPool {
            try EventStreamTests.send(saleJSON(id: "after-drops", lane: "lane-1", amount: 700), to: command)
        }
        #expect(
            try await HTTPProbe.offPool { reader.waitFor("after-drops") }, "the viewer that reads was never dropped")
        for (index, viewer) in stalled.enumerated() {
            // What the kernel held for it, then its last comment, then the end of the answer (chunked).
            let rest = await viewer.drained(until: "\r\n0\r\n\r\n", timeoutMs: 20_000)
            let text = String(decoding: rest.bytes, as: UTF8.self)
            #expect(
                text.contains(": dropped: this viewer read too slowly ("),
                "viewer \(index): its last comment says why; \(rest.bytes.count) bytes, closed \(rest.closed): \(text.suffix(300))"
            )
            #expect(text.hasSuffix("reconnect for a new snapshot\n\n\r\n0\r\n\r\n"), "\(text.suffix(200))")
        }
        #expect(
            try await HTTPLimitsTests.waitUntil {
                Scrape(harness.bridge.metrics.render()).value("vivabridge_http_viewer_buffered_bytes") < 4096
            }, "what waited for them is freed")
        try await HTTPProbe.offPool { reader.stop() }
        await listener.stop()
    }

    @Test("a dropped viewer that still does not read is closed once its grace is over")
    func droppedViewerClosed() async throws {
        let harness = try BridgeHarness.lanes(.ios)
        var limits = HTTPLimits()
        limits.maxViewerBytes = 16 << 10
        limits.viewerCloseGrace = .milliseconds(300)
        let listener = try await RunningListener(bridge: harness.bridge, limits: limits)
        let stalled = try await Self.viewer(port: listener.port, receiveBuffer: Self.receiveBuffer)
        let box = Unchecked(harness)
        let sales = try await HTTPProbe.offPool { () throws -> Int in
            var sales = 0
            while sales < 20_000,
                Scrape(box.value.bridge.metrics.render()).value("vivabridge_http_viewers_dropped_total") == 0
            {
                _ = try box.value.call(saleJSON(id: "c-\(sales)", lane: "lane-1", amount: 100))
                sales += 1
            }
            return sales
        }
        #expect(
            Scrape(harness.bridge.metrics.render()).value("vivabridge_http_viewers_dropped_total") == 1,
            "\(sales) sales")
        #expect(
            try await HTTPLimitsTests.waitUntil {
                Scrape(harness.bridge.metrics.render()).value("vivabridge_http_connections") == 0
            }, "its connection no longer holds a descriptor of the bridge's")
        #expect(harness.bridge.tap.viewers == 0)
        #expect(await stalled.drained(until: nil, timeoutMs: 10_000).closed, "closed, once what was sent is read")
        await listener.stop()
    }

    @Test("a viewer that does not read does not hold up the listener's stop")
    func stalledViewerAtStop() async throws {
        let harness = try BridgeHarness.lanes(.ios)
        let listener = try await RunningListener(bridge: harness.bridge)
        let stalled = try await Self.viewer(port: listener.port, receiveBuffer: Self.receiveBuffer)
        let box = Unchecked(harness)
        // Sales until writes wait for it in the listener: its connection's write is then stuck.
        let sales = try await HTTPProbe.offPool { () throws -> Int in
            var sales = 0
            while sales < 20_000,
                Scrape(box.value.bridge.metrics.render()).value("vivabridge_http_viewer_buffered_bytes") < 100_000
            {
                _ = try box.value.call(saleJSON(id: "t-\(sales)", lane: "lane-1", amount: 100))
                sales += 1
            }
            return sales
        }
        #expect(Scrape(harness.bridge.metrics.render()).value("vivabridge_http_viewer_buffered_bytes") >= 100_000)
        let stopped = StopFlag()
        Task {
            await listener.stop()
            stopped.set()
        }
        // Its connection is closed 2 s after the listener starts stopping (the grace for a last write).
        #expect(try await HTTPLimitsTests.waitUntil(seconds: 10) { stopped.isSet }, "after \(sales) sales")
        stalled.close()
    }

    /// A stalled viewer's receive buffer: small, so that it fills soon, but several segments of loopback's
    /// 64 KiB (smaller windows leave the sender waiting on zero-window probes, seconds apart, once it reads).
    static let receiveBuffer = 256 << 10

    /// An `/events` viewer on a connection of its own that reads its snapshot, then reads nothing more
    /// until it is drained.
    static func viewer(port: Int, path: String = "/events", receiveBuffer: Int? = nil) async throws -> RawConnection {
        let connection = try #require(RawConnection(port: port, receiveBuffer: receiveBuffer))
        #expect(await connection.wrote("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        var seen = ""
        let deadline = Date().addingTimeInterval(10)
        while !seen.contains(#""topic":"lanes""#), Date() < deadline {
            let part = await connection.drained(timeoutMs: 200)
            seen += String(decoding: part.bytes, as: UTF8.self)
            if part.closed { break }
        }
        #expect(seen.hasPrefix("HTTP/1.1 200") && seen.contains(#""topic":"lanes""#), "\(seen.prefix(300))")
        return connection
    }
}

/// A viewer that keeps up: a thread reads everything that comes.
final class FollowingViewer: Sendable {
    private let text = Mutex("")
    private let stopping = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    init(port: Int) throws {
        let connection = try LoopbackHTTP(port: port, timeoutMs: 100)
        try connection.get("/events", closing: false)
        let box = UncheckedBox(connection)
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while !stopping.load(ordering: .relaxed) {
                let count = box.value.receive(into: &buffer)
                if count == 0 { break }
                guard count > 0 else { continue }
                text.withLock { text in
                    text += String(decoding: buffer[0..<count], as: UTF8.self)
                    if text.utf8.count > 1 << 20 { text = String(text.suffix(65536)) }
                }
            }
            box.value.close()
            done.signal()
        }.start()
    }

    /// Waits up to 10 s for `needle` to have arrived.
    func waitFor(_ needle: String) -> Bool {
        for _ in 0..<200 {
            if text.withLock({ $0.contains(needle) }) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    func stop() {
        stopping.store(true, ordering: .relaxed)
        done.wait()
    }
}

private final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
}

private final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
