import Foundation
import Testing

@testable import TerminalSimulator

@Suite("Cancels against the lane's own history")
struct CancelTests {
    @Test("cancel by referenceNumber, then again", arguments: SimulatorPlatform.allCases)
    func byReference(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform)
        let probe = fixture.probe()
        let sale = CallbackFields(try probe.request(Requests.sale(amount: 1200, platform: platform)))
        let reference = try #require(sale["referenceNumber"])

        let cancelURL = Requests.url(action: "cancel", [("referenceNumber", reference)], platform: platform)
        let callback = try probe.request(cancelURL)
        let cancel = CallbackFields(callback)
        #expect(cancel["status"] == "success")
        #expect(cancel["action"] == "cancel")
        #expect(cancel.trimmed("amount") == "1200")
        #expect(cancel["cardType"] == sale["cardType"])
        #expect(cancel["accountNumber"] == sale["accountNumber"])
        #expect(cancel.trimmed("tid") == sale["tid"])
        #expect(cancel["transactionId"] != nil)
        #expect(cancel["transactionId"] != sale["transactionId"])
        #expect(callback.contains("amount=1200 &cardType="))
        if platform == .ios { #expect(callback.contains("&tid= ")) }

        let history = fixture.simulator.history(lane: "lane")
        #expect(history.map(\.kind) == [.sale, .cancel])
        #expect(history[0].cancelled)
        #expect(history[1].cancelledReferenceNumber == reference)

        let twice = try probe.request(cancelURL)
        let again = CallbackFields(twice)
        #expect(again["status"] == (platform == .ios ? "failed" : "fail"))
        #expect(again["message"] == (platform == .ios ? "Transaction already cancelled." : "(-23) REFUND_SERVER_ERROR"))
        #expect(twice.contains("amount=1200& cardType="))
    }

    @Test("an unknown reference fails at once", arguments: SimulatorPlatform.allCases)
    func unknownReference(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform)
        let fields = CallbackFields(
            try fixture.probe().request(
                Requests.url(action: "cancel", [("referenceNumber", "999999"), ("amount", "100")], platform: platform)))
        #expect(fields["status"] == (platform == .ios ? "failed" : "fail"))
        #expect(fields["message"] == (platform == .ios ? "Transaction not found." : "(-23) REFUND_SERVER_ERROR"))
        #expect(fields["action"] == "cancel")
        #expect(fields["amount"] == "100")
    }

    @Test("a declined sale cannot be cancelled")
    func declined() throws {
        let fixture = try Fixture(.ios, behaviour: LaneBehaviour(script: [.decline]))
        let probe = fixture.probe()
        let sale = CallbackFields(try probe.request(Requests.sale(amount: 1200, platform: .ios)))
        let orderCode = try #require(sale["orderCode"])
        let fields = CallbackFields(
            try probe.request(Requests.url(action: "cancel", [("orderCode", orderCode)], platform: .ios)))
        #expect(fields["message"] == "Transaction not found.")
    }

    @Test("cancel by orderCode, with a partial amount; over the sale's amount fails")
    func byOrderCode() throws {
        let fixture = try Fixture(.android)
        let probe = fixture.probe()
        let sale = CallbackFields(try probe.request(Requests.sale(amount: 1200, platform: .android)))
        let orderCode = try #require(sale["orderCode"])
        let over = CallbackFields(
            try probe.request(
                Requests.url(action: "cancel", [("orderCode", orderCode), ("amount", "1201")], platform: .android)))
        #expect(over["message"] == "(-999) UNEXPECTED - Amount exceeds the original transaction.")
        let partial = CallbackFields(
            try probe.request(
                Requests.url(action: "cancel", [("orderCode", orderCode), ("amount", "500")], platform: .android)))
        #expect(partial["status"] == "success")
        #expect(partial.trimmed("amount") == "500")
    }

    @Test("without a reference the cardholder presents the card and the latest sale is reversed")
    func withoutReference() throws {
        let fixture = try Fixture(.ios, behaviour: LaneBehaviour(cardPresentment: .manual))
        let probe = fixture.probe()
        try probe.expectOpened(try probe.open(Requests.sale(amount: 700, platform: .ios)))
        #expect(fixture.simulator.waitForPhase(lane: "lane", .cardPresentment, timeout: .wait))
        #expect(fixture.simulator.release(lane: "lane"))
        let sale = CallbackFields(try probe.callback())
        try probe.expectOpened(try probe.open(Requests.url(action: "cancel", platform: .ios)))
        #expect(fixture.simulator.waitForPhase(lane: "lane", .cardPresentment, timeout: .wait))
        #expect(fixture.simulator.release(lane: "lane"))
        let cancel = CallbackFields(try probe.callback())
        #expect(cancel["status"] == "success")
        #expect(cancel.trimmed("amount") == "700")
        #expect(fixture.simulator.history(lane: "lane").last?.cancelledReferenceNumber == sale["referenceNumber"])

        try probe.expectOpened(try probe.open(Requests.url(action: "cancel", platform: .ios)))
        #expect(fixture.simulator.waitForPhase(lane: "lane", .cardPresentment, timeout: .wait))
        #expect(fixture.simulator.release(lane: "lane"))
        #expect(CallbackFields(try probe.callback())["message"] == "Transaction not found.")
    }

    @Test("a cancel in its host phase gets no abort answer and completes")
    func abortDuringCancel() throws {
        let fixture = try Fixture(.android)
        let probe = fixture.probe()
        let reference = try #require(
            CallbackFields(try probe.request(Requests.sale(amount: 1200, platform: .android)))["referenceNumber"])
        fixture.simulator.setBehaviour(LaneBehaviour(host: .manual), lane: "lane")
        try probe.expectOpened(
            try probe.open(Requests.url(action: "cancel", [("referenceNumber", reference)], platform: .android)))
        #expect(fixture.simulator.waitForPhase(lane: "lane", .host, timeout: .wait))
        try probe.expectOpened(try probe.open(Requests.url(action: "abort", platform: .android)))
        #expect(fixture.simulator.waitForURLs(lane: "lane", count: 3, timeout: .wait))
        #expect(fixture.simulator.release(lane: "lane"))
        #expect(CallbackFields(try probe.callback())["action"] == "cancel")
    }
}

@Suite("A cancel waits for the card first, even with a reference")
struct CancelCardFirstTests {
    @Test(
        "a cancel by reference waits in card presentment, where an abort stops it",
        arguments: SimulatorPlatform.allCases)
    func abortWhileCardAwaited(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform, behaviour: LaneBehaviour(cardPresentment: .manual))
        let probe = fixture.probe()
        try probe.expectOpened(try probe.open(Requests.sale(amount: 1200, platform: platform)))
        #expect(fixture.simulator.waitForPhase(lane: "lane", .cardPresentment, timeout: .wait))
        #expect(fixture.simulator.release(lane: "lane"))
        let sale = CallbackFields(try probe.callback())
        let reference = try #require(sale["referenceNumber"])
        let cancel = Requests.url(action: "cancel", [("referenceNumber", reference)], platform: platform)
        try probe.expectOpened(try probe.open(cancel))
        #expect(fixture.simulator.waitForPhase(lane: "lane", .cardPresentment, timeout: .wait))
        let aborted = CallbackFields(try probe.request(Requests.url(action: "abort", platform: platform)))
        #expect(aborted["message"] == (platform == .ios ? "aborted" : "(-57) ABORTED"))
        #expect(fixture.simulator.phase(lane: "lane") == .idle)
        #expect(fixture.simulator.history(lane: "lane").first?.cancelled == false)
    }
}
