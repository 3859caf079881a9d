import Bridge
import InterApp
import TerminalSimulator
import Testing

/// A capture answered after its deadline: found by the authorisation its answer names, only when exactly one
/// `unknown` capture of the lane named it.
@Suite("Late results of captures (v1.1)")
struct LateCaptureTests {
    /// A harness whose lane authorised `pa-1` (8000 cents) and then stopped answering; returns the
    /// authorisation's orderCode.
    private static func authorised(_ platform: SimulatorPlatform) throws -> (BridgeHarness, String) {
        let harness = try BridgeHarness(
            lanes: [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: platform)],
            clock: ManualBridgeClock())
        let preAuth = try harness.call(#"{"id":"pa-1","lane":"lane-1","action":"pre_auth","amount":8000}"#)
        let orderCode = try #require(preAuth.object("result")?.string("orderCode"))
        harness.simulator.setBehaviour(LaneBehaviour(fault: .neverAnswer), lane: "lane-1")
        return (harness, orderCode)
    }

    /// Sends capture `id` of `orderCode` with a 1 s deadline, lets it run out, and returns the callback URL the
    /// app produced but never handed over.
    private static func unknownCapture(
        _ harness: BridgeHarness, id: String, orderCode: String, amount: Int, history: Int
    ) throws -> String {
        try harness.send(
            #"{"id":"\#(id)","lane":"lane-1","action":"capture_pre_auth","orderCode":"\#(orderCode)","amount":\#(amount),"timeoutMs":1000}"#
        )
        #expect(harness.simulator.waitForHistory(lane: "lane-1", count: history, timeout: .seconds(5)))
        harness.advance(byMs: 1001)
        #expect(try harness.reply(to: id).string("outcome") == "unknown")
        return try #require(harness.simulator.history(lane: "lane-1").last?.callbackURL)
    }

    @Test(
        "its late answer completes it: late_result, journaled, status, and it still names its authorisation",
        arguments: [SimulatorPlatform.ios, .android])
    func late(platform: SimulatorPlatform) throws {
        let (harness, orderCode) = try Self.authorised(platform)
        let url = try Self.unknownCapture(harness, id: "cap-1", orderCode: orderCode, amount: 6240, history: 2)
        harness.simulator.injectCallback(lane: "lane-1", url: url)
        let late = try harness.event("lane-1.capture_pre_auth.late_result") { $0.string("id") == "cap-1" }
        #expect(late.string("outcome") == "success")
        #expect(late["late"] == .bool(true))
        #expect(late.string("authorisation") == "pa-1")
        let status = try harness.call(#"{"id":"st","action":"status","ref":"cap-1"}"#)
        #expect(status.object("result")?.string("outcome") == "success")
        #expect(status.object("result")?.object("reply")?["late"] == .bool(true))
        #expect(status.object("result")?.object("reply")?.object("result")?.int("amount") == 6240)
    }

    @Test("two unknown captures of the same authorisation: a late answer completes neither, it is an orphan")
    func ambiguous() throws {
        let (harness, orderCode) = try Self.authorised(.android)
        let first = try Self.unknownCapture(harness, id: "cap-1", orderCode: orderCode, amount: 1000, history: 2)
        _ = try Self.unknownCapture(harness, id: "cap-2", orderCode: orderCode, amount: 2000, history: 3)
        harness.simulator.injectCallback(lane: "lane-1", url: first)
        #expect(try harness.event("lane-1.capture_pre_auth.orphan").string("action") == "capture_pre_auth")
        for id in ["cap-1", "cap-2"] {
            let status = try harness.call(#"{"id":"st-\#(id)","action":"status","ref":"\#(id)"}"#)
            #expect(status.object("result")?.string("outcome") == "unknown", "\(id)")
        }
    }
}
