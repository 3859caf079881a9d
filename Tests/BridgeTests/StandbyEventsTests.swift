import Foundation
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// `/events` on a bridge that went standby and serves again (docs/OPERATIONS.md, "Two bridges on one
/// PostgreSQL journal"): a viewer still connected is started again, as one that just came.
@Suite("/events across standby and active again")
struct StandbyEventsTests {
    @Test(
        "a viewer still connected when the bridge serves again gets a reset comment, then the new epoch's snapshot first"
    )
    func newSnapshotAtEachActivation() async throws {
        let leased = try await LeasedBridge()
        let listener = try await RunningListener(bridge: leased.bridge)
        let viewer = try #require(RawConnection(port: listener.port))
        #expect(await viewer.wrote("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        let firstEpoch = leased.bridge.live.epoch
        let first = await Self.read(viewer) { $0.contains { Self.isSnapshot($0, epoch: firstEpoch) } }
        #expect(first.contains { Self.isSnapshot($0, epoch: firstEpoch) }, "\(first)")

        try leased.takeLease()
        leased.nextRetentionPass()
        try #require(
            try await leased.logged("standby: the journal's lease was lost", timeout: 60), "\(leased.logs.text)")
        try leased.freeLease()
        #expect(
            try await HTTPLimitsTests.waitUntil(seconds: 60) { leased.bridge.live.role == .active },
            "\(leased.logs.text)")
        let secondEpoch = leased.bridge.live.epoch
        #expect(secondEpoch > firstEpoch + 1, "above the other instance's epoch too")

        let lines = await Self.read(viewer) { $0.contains { Self.isSnapshot($0, epoch: secondEpoch) } }
        let reset = try #require(
            lines.firstIndex { $0.hasPrefix(": reset: the bridge serves again") }, "no reset comment: \(lines)")
        let newEpoch = lines[reset...].filter { $0.contains(#""epoch":\#(secondEpoch)"#) }
        #expect(newEpoch.first.map { Self.isSnapshot($0, epoch: secondEpoch) } == true, "\(lines)")
        #expect(!lines[..<reset].contains { $0.contains(#""epoch":\#(secondEpoch)"#) }, "\(lines)")
        viewer.close()
        await listener.stop()
        try await leased.stop()
    }

    @Test("a new activation's binding of the tap lets a viewer joining then be started by its first snapshot")
    func bindingStartsTheSeqAgain() {
        let tap = EventTap()
        tap.bound()
        tap.deciding(seq: 500)
        tap.bound()
        #expect(tap.viewerJoined(filter: nil) == 0, "a viewer joining now waits for no seq of the last activation")
        tap.viewerLeft(filter: nil)
    }

    private static func isSnapshot(_ line: String, epoch: Int) -> Bool {
        line.hasPrefix(#"data: {"topic":"lanes""#) && line.contains(#""epoch":\#(epoch)"#)
    }

    /// What the viewer reads until `done` says stop (60 s at most: the full suite can hold the cooperative pool
    /// for tens of seconds; a passing read ends at once): its SSE lines (`data:` and comments), in order.
    private static func read(_ viewer: RawConnection, until done: ([String]) -> Bool) async -> [String] {
        var bytes: [UInt8] = []
        var lines: [String] = []
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let part = await viewer.drained(timeoutMs: 200)
            bytes += part.bytes
            lines = bytes.split(separator: 10).map { String(decoding: $0, as: UTF8.self) }
                .filter { $0.hasPrefix("data: ") || $0.hasPrefix(": ") }
            if done(lines) || part.closed { break }
        }
        return lines
    }
}
