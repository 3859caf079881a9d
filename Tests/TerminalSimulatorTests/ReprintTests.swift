import Foundation
import Testing

@testable import TerminalSimulator

@Suite("Reprint (v1.1)")
struct ReprintTests {
    @Test("iOS: reprintTransaction by order code, or the last transaction without one")
    func ios() throws {
        let fixture = try Fixture(.ios)
        let probe = fixture.probe()
        let first = CallbackFields(try probe.request(Requests.sale(amount: 100, platform: .ios)))
        let second = CallbackFields(try probe.request(Requests.sale(amount: 200, platform: .ios)))
        let firstCode = try #require(first["orderCode"])
        let byCode = CallbackFields(
            try probe.request(Requests.url(action: "reprintTransaction", [("orderCode", firstCode)], platform: .ios)))
        #expect(byCode["status"] == "success")
        #expect(byCode["message"] == "Printing Success")
        #expect(byCode["action"] == "reprintTransaction")
        #expect(byCode["orderCode"] == firstCode)
        #expect(byCode["command"] == nil)
        let last = CallbackFields(try probe.request(Requests.url(action: "reprintTransaction", platform: .ios)))
        #expect(last["status"] == "success")
        #expect(last["orderCode"] == second["orderCode"])
        #expect(fixture.simulator.history(lane: "lane").count == 2, "a reprint moves no money")
    }

    @Test("Android: print&command=reprint answers as Viva's example; a bad or unknown order code fails")
    func android() throws {
        let fixture = try Fixture(.android)
        let probe = fixture.probe()
        let nothing = CallbackFields(
            try probe.request(Requests.url(action: "print", [("command", "reprint")], platform: .android)))
        #expect(nothing["status"] == "fail")
        #expect(nothing["message"] == "(-999) UNEXPECTED - Transaction not found.")
        let sale = CallbackFields(try probe.request(Requests.sale(amount: 100, platform: .android)))
        let code = try #require(sale["orderCode"])
        let url = try probe.request(
            Requests.url(action: "print", [("command", "reprint"), ("orderCode", code)], platform: .android))
        let printed = CallbackFields(url)
        #expect(printed.names == ["action", "command", "orderCode", "status", "message"])
        #expect(printed["action"] == "print")
        #expect(printed["command"] == "reprint")
        #expect(printed["orderCode"] == code)
        #expect(printed["status"] == "success")
        #expect(printed["message"] == "Printing successful")
        let unknown = CallbackFields(
            try probe.request(
                Requests.url(
                    action: "print", [("command", "reprint"), ("orderCode", "1020304050607080")], platform: .android)))
        #expect(unknown["status"] == "fail")
        let short = CallbackFields(
            try probe.request(
                Requests.url(action: "print", [("command", "reprint"), ("orderCode", "123")], platform: .android)))
        #expect(short["status"] == "fail")
        #expect(short["message"]?.contains("orderCode") == true)
    }

    @Test("each platform refuses the other's spelling")
    func otherSpelling() throws {
        let ios = try Fixture(.ios)
        let refusedOnIOS = CallbackFields(
            try ios.probe().request(Requests.url(action: "print", [("command", "reprint")], platform: .ios)))
        #expect(refusedOnIOS["status"] == "failed")
        #expect(refusedOnIOS["message"] == "Unsupported action.")
        let android = try Fixture(.android)
        let refusedOnAndroid = CallbackFields(
            try android.probe().request(Requests.url(action: "reprintTransaction", platform: .android)))
        #expect(refusedOnAndroid["status"] == "fail")
    }
}
