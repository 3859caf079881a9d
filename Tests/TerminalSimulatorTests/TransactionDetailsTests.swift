import Foundation
import Testing

@testable import TerminalSimulator

@Suite("transactionDetails (Android)")
struct TransactionDetailsTests {
    @Test("a sale is found by clientTransactionId, with its fields")
    func found() throws {
        let fixture = try Fixture(.android)
        let probe = fixture.probe()
        let sale = CallbackFields(
            try probe.request(
                Requests.sale(amount: 1234, tip: 34, clientTransactionId: "order 42/A", platform: .android)))
        let callback = try probe.request(
            Requests.url(action: "transactionDetails", [("clientTransactionId", "order 42/A")], platform: .android))
        let details = CallbackFields(callback)
        #expect(Array(details.names.prefix(5)) == ["status", "message", "action", "clientTransactionId", "amount"])
        #expect(details["status"] == "success")
        #expect(details["message"] == "Transaction Details Fetched")
        #expect(callback.contains("message=Transaction Details Fetched&"))
        #expect(details["action"] == "transactionDetails")
        #expect(details["clientTransactionId"] == "order 42/A")
        #expect(details["amount"] == "1234")
        for name in [
            "tipAmount", "rrn", "referenceNumber", "authorisationCode", "orderCode", "shortOrderCode", "accountNumber",
            "cardType", "transactionDate", "transactionId", "tid",
        ] {
            #expect(details[name] == sale[name], "\(name)")
        }
    }

    @Test("an unknown id is not found; a declined sale is found, with no authorisation code (Viva's page)")
    func unknownAndDeclined() throws {
        let fixture = try Fixture(.android)
        let probe = fixture.probe()
        _ = try probe.request(Requests.sale(amount: 1051, clientTransactionId: "declined", platform: .android))
        let missing = CallbackFields(
            try probe.request(
                Requests.url(action: "transactionDetails", [("clientTransactionId", "nope")], platform: .android)))
        #expect(missing["status"] == "fail")
        #expect(missing["message"] == "(-999) UNEXPECTED - Transaction not found.")
        #expect(missing["action"] == "transactionDetails")
        #expect(missing["clientTransactionId"] == "nope")
        let declined = CallbackFields(
            try probe.request(
                Requests.url(action: "transactionDetails", [("clientTransactionId", "declined")], platform: .android)))
        #expect(declined["status"] == "success")
        #expect(declined["clientTransactionId"] == "declined")
        #expect(declined["amount"] == "1051")
        #expect(declined["authorisationCode"] == "")
        #expect(declined["referenceNumber"] == "")
    }

    @Test("a sourceTerminalId other than this terminal's finds nothing")
    func sourceTerminal() throws {
        let fixture = try Fixture(.android)
        let probe = fixture.probe()
        let tid = try #require(
            CallbackFields(try probe.request(Requests.sale(amount: 100, clientTransactionId: "t", platform: .android)))[
                "tid"])
        let other = CallbackFields(
            try probe.request(
                Requests.url(
                    action: "transactionDetails", [("clientTransactionId", "t"), ("sourceTerminalId", "1")],
                    platform: .android)))
        #expect(other["status"] == "fail")
        let same = CallbackFields(
            try probe.request(
                Requests.url(
                    action: "transactionDetails", [("clientTransactionId", "t"), ("sourceTerminalId", tid)],
                    platform: .android)))
        #expect(same["status"] == "success")
    }

    @Test("a sale lost while the link was down is recovered")
    func lostResult() throws {
        let fixture = try Fixture(.android, behaviour: LaneBehaviour(host: .manual))
        let probe = fixture.probe()
        try probe.expectOpened(
            try probe.open(Requests.sale(amount: 1200, clientTransactionId: "lost-1", platform: .android)))
        #expect(fixture.simulator.waitForPhase(lane: "lane", .host, timeout: .wait))
        fixture.simulator.dropLink(lane: "lane")
        #expect(fixture.simulator.release(lane: "lane"))
        #expect(fixture.simulator.history(lane: "lane").last?.outcome == .approved)
        fixture.simulator.setBehaviour(LaneBehaviour(), lane: "lane")
        #expect(fixture.simulator.restoreLink(lane: "lane"))
        try probe.awaitReconnection()
        try probe.hello()
        let details = CallbackFields(
            try probe.request(
                Requests.url(action: "transactionDetails", [("clientTransactionId", "lost-1")], platform: .android)))
        #expect(details["status"] == "success")
        #expect(details["referenceNumber"] == fixture.simulator.history(lane: "lane").last?.referenceNumber)
    }
}
