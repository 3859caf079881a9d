import Foundation
import Testing

@testable import TerminalSimulator

@Suite("Requests the app refuses with a failure callback")
struct ValidationTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let action: String
        let parameters: [(String, String)]
        let reason: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "no amount", action: "sale", parameters: [("clientTransactionId", "x")],
            reason: "Amount must not be empty."),
        Case(
            name: "zero amount", action: "sale", parameters: [("amount", "0")],
            reason: "Amount must be an integer larger than zero."),
        Case(
            name: "amount with a fraction", action: "sale", parameters: [("amount", "12.50")],
            reason: "Amount must be an integer larger than zero."),
        Case(
            name: "negative amount", action: "sale", parameters: [("amount", "-5")],
            reason: "Amount must be an integer larger than zero."),
        Case(
            name: "amount over int32", action: "sale", parameters: [("amount", "2147483648")],
            reason: "Amount must be an integer larger than zero."),
        Case(
            name: "tip over amount", action: "sale", parameters: [("amount", "100"), ("tipAmount", "101")],
            reason: "Tip amount must be less than or equal to the amount."),
        Case(
            name: "tip not an integer", action: "sale", parameters: [("amount", "100"), ("tipAmount", "1e2")],
            reason: "Tip amount must be an integer."),
        Case(
            name: "installments without a number", action: "sale",
            parameters: [("amount", "100"), ("withInstallments", "true")],
            reason: "preferredInstallments is required when withInstallments is set."),
        Case(
            name: "installments not a number", action: "sale",
            parameters: [("amount", "100"), ("withInstallments", "true"), ("preferredInstallments", "ten")],
            reason: "preferredInstallments must be an integer."),
        Case(
            name: "ISV without secret", action: "sale",
            parameters: [("amount", "100"), ("ISV_clientId", "id"), ("ISV_amount", "10")],
            reason: "ISV_clientId, ISV_clientSecret and ISV_amount are required together."),
        Case(
            name: "ISV source code alone", action: "sale", parameters: [("amount", "100"), ("ISV_sourceCode", "1234")],
            reason: "ISV_clientId, ISV_clientSecret and ISV_amount are required together."),
        Case(
            name: "ISV fee over amount", action: "sale",
            parameters: [("amount", "100"), ("ISV_clientId", "id"), ("ISV_clientSecret", "s"), ("ISV_amount", "101")],
            reason: "ISV_amount must not exceed the amount."),
        Case(name: "unknown action", action: "refundEverything", parameters: [], reason: ""),
        Case(name: "batch without command", action: "batch", parameters: [], reason: "command must be open or close."),
        Case(
            name: "cancel with a bad amount", action: "cancel",
            parameters: [("referenceNumber", "1"), ("amount", "x")],
            reason: "Amount must be an integer larger than zero."),
    ]

    @Test("each rule, in both dialects", arguments: cases, SimulatorPlatform.allCases)
    func rule(_ rule: Case, platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform)
        let callback = try fixture.probe().request(
            Requests.url(action: rule.action, rule.parameters, platform: platform))
        let fields = CallbackFields(callback)
        #expect(fields["status"] == (platform == .ios ? "failed" : "fail"))
        #expect(fields["action"] == rule.action)
        let expected: String
        if rule.reason.isEmpty {
            expected = platform == .ios ? "Unsupported action." : "(-999) UNEXPECTED - Unsupported action."
        } else {
            expected = platform == .ios ? rule.reason : "(-999) UNEXPECTED - " + rule.reason
        }
        #expect(fields["message"] == expected)
        #expect(fixture.simulator.history(lane: "lane").isEmpty)
        #expect(fixture.simulator.phase(lane: "lane") == .idle)
    }

    @Test("a refused sale echoes its clientTransactionId and amounts")
    func echo() throws {
        let fixture = try Fixture(.ios)
        let fields = CallbackFields(
            try fixture.probe().request(
                Requests.sale(amount: 100, tip: 500, clientTransactionId: "pos-9", platform: .ios)))
        #expect(fields["clientTransactionId"] == "pos-9")
        #expect(fields["amount"] == "100")
        #expect(fields["tipAmount"] == "500")
    }

    @Test("transactionDetails does not exist on iOS")
    func detailsOnIOS() throws {
        let fixture = try Fixture(.ios)
        let fields = CallbackFields(
            try fixture.probe().request(
                Requests.url(action: "transactionDetails", [("clientTransactionId", "x")], platform: .ios)))
        #expect(fields["status"] == "failed")
        #expect(fields["message"] == "Unsupported action.")
        #expect(fields["action"] == "transactionDetails")
    }

    @Test("an empty merchantKey or appId is refused", arguments: ["merchantKey", "appId"])
    func commonKeys(key: String) throws {
        let fixture = try Fixture(.android)
        let url = Requests.sale(amount: 100, platform: .android).replacingOccurrences(
            of: "\(key)=", with: "\(key)=&ignored=")
        let fields = CallbackFields(try fixture.probe().request(url))
        #expect(fields["status"] == "fail")
        #expect(fields["message"] == "(-999) UNEXPECTED - \(key) must not be empty.")
    }

    @Test("a request without a callback is opened but never answered")
    func noCallback() throws {
        let fixture = try Fixture(.ios)
        let probe = fixture.probe()
        try probe.expectOpened(try probe.open("vivapayclient://pay/v1?merchantKey=k&appId=a&action=sale&amount=100"))
        #expect(fixture.simulator.waitForURLs(lane: "lane", count: 1, timeout: .wait))
        fixture.simulator.injectCallback(lane: "lane", url: "marker://")
        #expect(try probe.callback() == "marker://")
        #expect(fixture.simulator.history(lane: "lane").isEmpty)
    }
}
