import Bridge
import Foundation
import InterApp
import JournalTools
import TerminalSimulator
import Testing

/// A command in flight on a lane that the configuration no longer has at the next start: no callback can
/// reach it, so it ends `unknown` at that start, and is answered, listed and exported (issue 44, item 4).
@Suite("A lane removed while a command was in flight on it")
struct RemovedLaneRestartTests {
    private static var quiet: LaneBehaviour {
        var behaviour = LaneBehaviour()
        behaviour.fault = .neverAnswer
        return behaviour
    }

    @Test("the sale ends unknown at the restart; its repeat, status and journal unknown all say so; nothing is sent")
    func strandedSaleEndsUnknown() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("removed-lane-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let kept = SimulatedLane(id: "lane-a", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: .zeroDelay)
        let removed = SimulatedLane(id: "lane-b", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: Self.quiet)
        // The first harness stays alive (its end removes the folder); only its bridge stops, as a kill leaves it.
        let first = try BridgeHarness(lanes: [kept, removed], journalFolder: folder)
        let sale = saleJSON(id: "stranded", lane: "lane-b", amount: 1250)
        try first.send(sale)
        try first.event("lane-b.sale.delivered") { $0.string("id") == "stranded" }
        first.bridge.halt()

        let again = try BridgeHarness(lanes: [kept], journalFolder: folder)
        let repeated = try again.call(sale)
        #expect(repeated.string("id") == "stranded")
        #expect(repeated.string("outcome") == "unknown", "\(repeated)")
        #expect(repeated.string("message")?.contains("lane-b was removed") == true, "\(repeated)")
        let status = try again.call(#"{"id":"st","action":"status","ref":"stranded"}"#)
        #expect(status.object("result")?.string("outcome") == "unknown", "\(status)")
        let listed = try JournalUnknown.list(path: again.configuration.journal)
        #expect(listed.map(\.id) == ["stranded"])
        #expect(listed.first?.amount == 1250)
        #expect(again.simulator.openedURLs(lane: "lane-a").isEmpty, "nothing was sent for it")
        #expect(again.logs.text.contains("lane no longer configured"))
        // A sale on the lane that is still configured goes on as usual.
        #expect(try again.call(saleJSON(id: "next", lane: "lane-a", amount: 300)).string("outcome") == "success")
    }
}
