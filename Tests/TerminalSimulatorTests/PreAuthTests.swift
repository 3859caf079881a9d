import Foundation
import Testing

@testable import TerminalSimulator

@Suite("Pre-authorisation and capture (v1.1)")
struct PreAuthTests {
    @Test(
        "a pre-auth runs as a sale, answers pre_auth; captured in part by order code, then the rest",
        arguments: [
            SimulatorPlatform.ios, .android,
        ])
    func authoriseAndCapture(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform)
        let probe = fixture.probe()
        let authorised = CallbackFields(
            try probe.request(
                Requests.url(
                    action: "pre_auth", [("amount", "8000"), ("clientTransactionId", "pa-1")], platform: platform)))
        #expect(authorised["status"] == "success")
        #expect(authorised["action"] == "pre_auth")
        #expect(authorised["clientTransactionId"] == "pa-1")
        #expect(authorised["amount"] == "8000")
        let orderCode = try #require(authorised["orderCode"])
        let first = CallbackFields(
            try probe.request(
                Requests.url(
                    action: "capture_pre_auth", [("amount", "6000"), ("orderCode", orderCode)], platform: platform)))
        #expect(first["status"] == "success")
        #expect(first["action"] == "capture_pre_auth")
        #expect(first["amount"] == "6000")
        #expect(first["orderCode"] == orderCode)
        #expect(first["authorisationCode"] == authorised["authorisationCode"])
        #expect(first["referenceNumber"] != authorised["referenceNumber"])
        let rest = CallbackFields(
            try probe.request(Requests.url(action: "capture_pre_auth", [("orderCode", orderCode)], platform: platform)))
        #expect(rest["status"] == "success")
        #expect(rest["amount"] == "2000", "no amount: what is left")
        let none = CallbackFields(
            try probe.request(Requests.url(action: "capture_pre_auth", [("orderCode", orderCode)], platform: platform)))
        #expect(none["status"] == (platform == .ios ? "failed" : "fail"))
        let kinds = fixture.simulator.history(lane: "lane").map(\.kind)
        #expect(kinds == [.preAuth, .capture, .capture])
        #expect(fixture.simulator.history(lane: "lane").first?.captured == 8000)
    }

    @Test("declines by amount, too large a capture, an unknown authorisation")
    func failures() throws {
        let fixture = try Fixture(.android)
        let probe = fixture.probe()
        let declined = CallbackFields(
            try probe.request(Requests.url(action: "pre_auth", [("amount", "1051")], platform: .android)))
        #expect(declined["status"] == "fail")
        #expect(declined["action"] == "pre_auth")
        let authorised = CallbackFields(
            try probe.request(Requests.url(action: "pre_auth", [("amount", "5000")], platform: .android)))
        let reference = try #require(authorised["referenceNumber"])
        let tooMuch = CallbackFields(
            try probe.request(
                Requests.url(
                    action: "capture_pre_auth", [("amount", "5001"), ("referenceNumber", reference)],
                    platform: .android)))
        #expect(tooMuch["message"] == "(-999) UNEXPECTED - Amount exceeds the pre-authorised amount.")
        let hostDeclined = CallbackFields(
            try probe.request(
                Requests.url(
                    action: "capture_pre_auth", [("amount", "151"), ("referenceNumber", reference)], platform: .android)
            ))
        #expect(hostDeclined["status"] == "fail")
        #expect(hostDeclined["message"] == "(-6) TRANSACTION_DECLINED")
        let unknown = CallbackFields(
            try probe.request(
                Requests.url(action: "capture_pre_auth", [("orderCode", "1020304050607080")], platform: .android)))
        #expect(unknown["message"] == "(-999) UNEXPECTED - Pre-authorisation not found.")
        let sale = CallbackFields(try probe.request(Requests.sale(amount: 700, platform: .android)))
        let notAPreAuth = CallbackFields(
            try probe.request(
                Requests.url(action: "capture_pre_auth", [("orderCode", sale["orderCode"]!)], platform: .android)))
        #expect(notAPreAuth["status"] == "fail", "a sale is not an authorisation")
    }

    @Test("an abort does not stop a pre-auth waiting for its card: nothing to abort")
    func notAbortable() throws {
        var behaviour = LaneBehaviour()
        behaviour.cardPresentment = .manual
        let fixture = try Fixture(.ios, behaviour: behaviour)
        let probe = fixture.probe()
        let reference = try probe.open(Requests.url(action: "pre_auth", [("amount", "100")], platform: .ios))
        try probe.expectOpened(reference)
        #expect(fixture.simulator.waitForPhase(lane: "lane", .cardPresentment, timeout: .seconds(5)))
        let abort = CallbackFields(try probe.request(Requests.url(action: "abort", platform: .ios)))
        #expect(abort["message"] == "nothing to abort")
        #expect(fixture.simulator.release(lane: "lane"))
        #expect(CallbackFields(try probe.callback())["action"] == "pre_auth")
    }
}
