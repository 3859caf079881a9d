import Foundation
import Testing

@testable import TerminalSimulator

@Suite("Fast refund (v1.1, Android only)")
struct FastRefundTests {
    @Test("Android: runs as a sale with the card, answers send_money_fast_refund; unknown STAN; declines by amount")
    func android() throws {
        let fixture = try Fixture(.android)
        let probe = fixture.probe()
        let sale = CallbackFields(
            try probe.request(Requests.url(action: "sale", [("amount", "1200")], platform: .android)))
        let reference = try #require(sale["referenceNumber"])
        let refunded = CallbackFields(
            try probe.request(
                Requests.url(
                    action: "send_money_fast_refund",
                    [("amount", "500"), ("referenceNumber", reference), ("clientTransactionId", "fr-1")],
                    platform: .android)))
        #expect(refunded["status"] == "success")
        #expect(refunded["action"] == "send_money_fast_refund")
        #expect(refunded["amount"] == "500")
        #expect(refunded["clientTransactionId"] == "fr-1")
        let unknown = CallbackFields(
            try probe.request(
                Requests.url(
                    action: "send_money_fast_refund", [("amount", "500"), ("referenceNumber", "999999")],
                    platform: .android)))
        #expect(unknown["status"] == "fail")
        #expect(unknown["message"] == "(-23) REFUND_SERVER_ERROR")
        let declined = CallbackFields(
            try probe.request(Requests.url(action: "send_money_fast_refund", [("amount", "151")], platform: .android)))
        #expect(declined["status"] == "fail")
        #expect(declined["action"] == "send_money_fast_refund")
        #expect(fixture.simulator.history(lane: "lane").map(\.kind) == [.sale, .fastRefund, .fastRefund])
    }

    @Test("iOS: the app does not know the action")
    func ios() throws {
        let fixture = try Fixture(.ios)
        let answer = CallbackFields(
            try fixture.probe().request(
                Requests.url(action: "send_money_fast_refund", [("amount", "500")], platform: .ios)))
        #expect(answer["status"] == "failed")
        #expect(fixture.simulator.history(lane: "lane").isEmpty)
    }
}
