import Foundation
import Testing

@testable import TerminalSimulator

@Suite("Unreferenced refund (v1.1)")
struct UnreferencedRefundTests {
    @Test(
        "runs as a sale with the card, answers unreferenced_refund; declines by amount",
        arguments: [
            SimulatorPlatform.ios, .android,
        ])
    func refund(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform)
        let probe = fixture.probe()
        let refunded = CallbackFields(
            try probe.request(
                Requests.url(
                    action: "unreferenced_refund", [("amount", "500"), ("clientTransactionId", "ur-1")],
                    platform: platform)))
        #expect(refunded["status"] == "success")
        #expect(refunded["action"] == "unreferenced_refund")
        #expect(refunded["amount"] == "500")
        #expect(refunded["clientTransactionId"] == "ur-1")
        #expect(refunded["accountNumber"] != nil)
        let declined = CallbackFields(
            try probe.request(Requests.url(action: "unreferenced_refund", [("amount", "151")], platform: platform)))
        #expect(declined["status"] == (platform == .ios ? "failed" : "fail"))
        #expect(declined["action"] == "unreferenced_refund")
        #expect(fixture.simulator.history(lane: "lane").map(\.kind) == [.unreferencedRefund, .unreferencedRefund])
    }
}
