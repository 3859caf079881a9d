import Foundation
import Testing

@testable import TerminalSimulator

@Suite("Sales: approval fields, outcomes by amount and by script")
struct SaleTests {
    @Test("an approved sale carries every field, realistically formatted", arguments: SimulatorPlatform.allCases)
    func approval(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform)
        let callback = try fixture.probe().request(
            Requests.sale(amount: 1200, tip: 200, clientTransactionId: "pos7-000123", platform: platform))
        let fields = CallbackFields(callback)

        #expect(fields.base == (platform == .ios ? "interapp-callback://result" : "mycallbackscheme://result"))
        #expect(fields["status"] == "success")
        #expect(fields["message"] == "Transaction successful.")
        #expect(fields["action"] == "sale")
        #expect(fields["clientTransactionId"] == "pos7-000123")
        #expect(fields["amount"] == "1200")
        #expect(fields["tipAmount"] == "200")
        #expect(try #require(fields["rrn"]).wholeMatch(of: /[0-9]{12}/) != nil)
        let reference = try #require(fields["referenceNumber"])
        #expect(reference.wholeMatch(of: /[0-9]{6}/) != nil)
        #expect(fields["rrn"]?.hasSuffix(reference) == true)
        #expect(try #require(fields["authorisationCode"]).wholeMatch(of: /[0-9]{6}/) != nil)
        #expect(try #require(fields["tid"]).wholeMatch(of: /[0-9]{8}/) != nil)
        let orderCode = try #require(fields["orderCode"])
        #expect(orderCode.wholeMatch(of: /[1-9][0-9]{15}/) != nil)
        #expect(fields["shortOrderCode"] == String(orderCode.prefix(10)))
        #expect(
            try #require(fields["transactionId"]).wholeMatch(
                of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil)
        #expect(try #require(fields["accountNumber"]).wholeMatch(of: /[0-9]{6}\*{6}[0-9]{4}/) != nil)
        #expect(fields["cardType"]?.isEmpty == false)
        #expect(fields["verificationMethod"]?.isEmpty == false)
        #expect(fields["installments"] == nil)
        #expect(fields["transactionDate"] == "2026-11-21T12:14:19.8703452+02:00")
        // Realistic: a raw `+` in the date, `%20` in iOS messages, raw spaces in Android ones.
        #expect(callback.contains("transactionDate=2026-11-21T12:14:19.8703452+02:00"))
        #expect(
            callback.contains(
                platform == .ios ? "message=Transaction%20successful." : "message=Transaction successful."))
        #expect((fields["aid"] != nil) == (platform == .android))

        let record = try #require(fixture.simulator.history(lane: "lane").last)
        #expect(record.kind == .sale)
        #expect(record.outcome == .approved)
        #expect(record.referenceNumber == reference)
        #expect(record.callbackURL == callback)
        #expect(fixture.simulator.phase(lane: "lane") == .idle)
    }

    @Test("field order follows Viva's example")
    func fieldOrder() throws {
        let fixture = try Fixture(.ios)
        let fields = CallbackFields(try fixture.probe().request(Requests.sale(amount: 1200, tip: 200, platform: .ios)))
        #expect(
            fields.names == [
                "status", "message", "action", "clientTransactionId", "amount", "tipAmount", "verificationMethod",
                "rrn",
                "cardType", "accountNumber", "referenceNumber", "authorisationCode", "tid", "orderCode",
                "shortOrderCode",
                "transactionDate", "transactionId",
            ])
    }

    @Test("a sale without clientTransactionId or tip", arguments: SimulatorPlatform.allCases)
    func minimal(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform)
        let fields = CallbackFields(
            try fixture.probe().request(Requests.sale(amount: 5, clientTransactionId: nil, platform: platform)))
        #expect(fields["status"] == "success")
        #expect(fields["clientTransactionId"] == nil)
        #expect(fields["tipAmount"] == "0")
    }

    @Test("amounts ending in 51 are declined by the host", arguments: SimulatorPlatform.allCases)
    func decline(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform)
        let callback = try fixture.probe().request(Requests.sale(amount: 1051, platform: platform))
        let fields = CallbackFields(callback)
        #expect(fields["status"] == (platform == .ios ? "failed" : "fail"))
        #expect(fields["message"] == (platform == .ios ? "Transaction declined by host." : "(-6) TRANSACTION_DECLINED"))
        #expect(fields["action"] == "sale")
        #expect(fields["clientTransactionId"] == "pos-1")
        #expect(fields["amount"] == "1051")
        #expect(fields["referenceNumber"] == "")
        #expect(fields["authorisationCode"] == "")
        #expect(fields["transactionId"] == nil)
        #expect(callback.contains("& accountNumber="))
        if platform == .ios { #expect(callback.contains("message=Transaction%20declined%20by%20host.")) }
        #expect(fixture.simulator.history(lane: "lane").last?.outcome == .declined)
    }

    @Test("amounts ending in 52 are cancelled by the cardholder", arguments: SimulatorPlatform.allCases)
    func cardholderCancel(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform)
        let callback = try fixture.probe().request(Requests.sale(amount: 152, tip: 2, platform: platform))
        let fields = CallbackFields(callback)
        #expect(fields["status"] == (platform == .ios ? "failed" : "fail"))
        #expect(
            fields["message"] == (platform == .ios ? "Transaction cancelled by the cardholder." : "(-4) USER_CANCEL"))
        #expect(fields.names == ["status", "message", "action", "clientTransactionId", "amount", "tipAmount"])
        if platform == .android { #expect(callback.contains("message=(-4) USER_CANCEL&")) }
        #expect(fixture.simulator.history(lane: "lane").last?.outcome == .cardholderCancelled)
    }

    @Test("amounts ending in 53 fail with a host error", arguments: SimulatorPlatform.allCases)
    func hostError(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform)
        let fields = CallbackFields(try fixture.probe().request(Requests.sale(amount: 253, platform: platform)))
        #expect(fields["status"] == (platform == .ios ? "failed" : "fail"))
        #expect(fields["message"] == (platform == .ios ? "Communication with the host failed." : "(-999) UNEXPECTED"))
        #expect(fields["cardType"] != nil)
        #expect(fields["rrn"] == nil)
        #expect(fixture.simulator.history(lane: "lane").last?.outcome == .hostError)
    }

    @Test("a script is consumed in order, then the amount decides again")
    func script() throws {
        let fixture = try Fixture(
            .android, behaviour: LaneBehaviour(script: [.decline, .hostError, .cardholderCancel, .approve]))
        var messages: [String?] = []
        for _ in 0..<5 {
            messages.append(
                CallbackFields(try fixture.probe().request(Requests.sale(amount: 1051, platform: .android)))["message"])
        }
        #expect(
            messages == [
                "(-6) TRANSACTION_DECLINED", "(-999) UNEXPECTED", "(-4) USER_CANCEL", "Transaction successful.",
                "(-6) TRANSACTION_DECLINED",
            ])
        #expect(
            fixture.simulator.history(lane: "lane").map(\.outcome) == [
                .declined, .hostError, .cardholderCancelled, .approved, .declined,
            ])
    }

    @Test("installments: the preferred number, or the cardholder's pick", arguments: SimulatorPlatform.allCases)
    func installments(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform)
        let preferred = CallbackFields(
            try fixture.probe().request(
                Requests.sale(
                    amount: 12000, platform: platform,
                    extra: [("withInstallments", "true"), ("preferredInstallments", "10")])))
        #expect(preferred["installments"] == "10")
        let prompted = CallbackFields(
            try fixture.probe().request(
                Requests.sale(
                    amount: 12000, platform: platform,
                    extra: [("withInstallments", "true"), ("preferredInstallments", "0")])))
        let picked = try #require(prompted["installments"].flatMap { Int($0) })
        #expect((2...12).contains(picked))
        let none = CallbackFields(
            try fixture.probe().request(
                Requests.sale(amount: 12000, platform: platform, extra: [("withInstallments", "false")])))
        #expect(none["installments"] == nil)
        #expect(fixture.simulator.history(lane: "lane").map(\.installments) == [10, picked, nil])
    }

    @Test("each sale gets a new STAN and order code")
    func uniqueNumbers() throws {
        let fixture = try Fixture(.ios)
        var references = Set<String>()
        var orderCodes = Set<String>()
        for index in 0..<20 {
            let fields = CallbackFields(
                try fixture.probe().request(
                    Requests.sale(amount: 100 + index, clientTransactionId: "c\(index)", platform: .ios)))
            references.insert(try #require(fields["referenceNumber"]))
            orderCodes.insert(try #require(fields["orderCode"]))
        }
        #expect(references.count == 20)
        #expect(orderCodes.count == 20)
    }

    @Test("a request while a sale is in flight is refused as busy", arguments: SimulatorPlatform.allCases)
    func busy(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform, behaviour: LaneBehaviour(cardPresentment: .manual))
        let probe = fixture.probe()
        try probe.expectOpened(
            try probe.open(Requests.sale(amount: 1200, clientTransactionId: "first", platform: platform)))
        #expect(fixture.simulator.waitForPhase(lane: "lane", .cardPresentment, timeout: .wait))
        let busy = CallbackFields(
            try probe.request(Requests.sale(amount: 900, clientTransactionId: "second", platform: platform)))
        #expect(busy["status"] == (platform == .ios ? "failed" : "fail"))
        #expect(busy["action"] == "sale")
        #expect(busy["message"]?.contains("Another transaction is in progress.") == true)
        #expect(fixture.simulator.release(lane: "lane"))
        let first = CallbackFields(try probe.callback())
        #expect(first["clientTransactionId"] == "first")
        #expect(first["status"] == "success")
        #expect(!fixture.simulator.release(lane: "lane"))
    }

    @Test("timed phases pass through card presentment and host", arguments: SimulatorPlatform.allCases)
    func timedPhases(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(
            platform, behaviour: LaneBehaviour(cardPresentment: .milliseconds(30), host: .milliseconds(30)))
        let probe = fixture.probe()
        let start = ContinuousClock.now
        try probe.expectOpened(try probe.open(Requests.sale(amount: 1200, platform: platform)))
        let fields = CallbackFields(try probe.callback())
        #expect(fields["status"] == "success")
        #expect(ContinuousClock.now - start >= .milliseconds(60))
    }

    @Test("manual phases wait for release, phase by phase")
    func manualPhases() throws {
        let fixture = try Fixture(.ios, behaviour: LaneBehaviour(cardPresentment: .manual, host: .manual))
        let probe = fixture.probe()
        try probe.expectOpened(try probe.open(Requests.sale(amount: 1200, platform: .ios)))
        #expect(fixture.simulator.waitForPhase(lane: "lane", .cardPresentment, timeout: .wait))
        #expect(fixture.simulator.release(lane: "lane"))
        #expect(fixture.simulator.phase(lane: "lane") == .host)
        #expect(fixture.simulator.release(lane: "lane"))
        #expect(CallbackFields(try probe.callback())["status"] == "success")
        #expect(fixture.simulator.phase(lane: "lane") == .idle)
    }
}
