import Foundation
import Testing

@testable import TerminalSimulator

@Suite("Report (v1.1, iOS only)")
struct ReportTests {
    @Test("iOS: the active batch's totals; a batch by name; none active is Batch not found.")
    func ios() throws {
        let fixture = try Fixture(.ios)
        let probe = fixture.probe()
        let none = CallbackFields(
            try probe.request(Requests.url(action: "getReport", [("command", "summary")], platform: .ios)))
        #expect(none["status"] == "failed")
        #expect(none["message"] == "Batch not found.")
        _ = try probe.request(
            Requests.url(action: "batch", [("command", "open"), ("batchName", "morning")], platform: .ios))
        _ = try probe.request(Requests.url(action: "sale", [("amount", "1200"), ("tipAmount", "100")], platform: .ios))
        _ = try probe.request(Requests.url(action: "sale", [("amount", "151")], platform: .ios))
        _ = try probe.request(Requests.url(action: "unreferenced_refund", [("amount", "500")], platform: .ios))
        _ = try probe.request(
            Requests.url(action: "batch", [("command", "open"), ("batchName", "evening")], platform: .ios))
        _ = try probe.request(Requests.url(action: "sale", [("amount", "300")], platform: .ios))
        let active = CallbackFields(
            try probe.request(Requests.url(action: "getReport", [("command", "summary")], platform: .ios)))
        #expect(active["status"] == "success")
        #expect(active["action"] == "getReport")
        #expect(active["batchName"] == "evening")
        #expect(active["salesCount"] == "1")
        #expect(active["salesAmount"] == "300")
        let morning = CallbackFields(
            try probe.request(
                Requests.url(action: "getReport", [("command", "summary"), ("batchName", "morning")], platform: .ios)))
        #expect(morning["batchName"] == "morning")
        #expect(morning["salesCount"] == "1", "the declined sale is not counted")
        #expect(morning["salesAmount"] == "1300")
        #expect(morning["refundsCount"] == "1")
        #expect(morning["refundsAmount"] == "500")
        let unknownName = CallbackFields(
            try probe.request(
                Requests.url(action: "getReport", [("command", "summary"), ("batchName", "nope")], platform: .ios)))
        #expect(unknownName["batchName"] == "evening", "a name that matches none reports the active batch")
    }

    @Test("Android: the app does not know the action")
    func android() throws {
        let fixture = try Fixture(.android)
        let answer = CallbackFields(
            try fixture.probe().request(Requests.url(action: "getReport", [("command", "summary")], platform: .android))
        )
        #expect(answer["status"] == "fail")
        #expect(answer["message"]?.contains("Unsupported action") == true)
    }
}
