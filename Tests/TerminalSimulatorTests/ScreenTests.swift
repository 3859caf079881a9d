import Foundation
import Testing

@testable import TerminalSimulator

/// The screens a request asks for (`show_receipt`, `show_transaction_result`, `show_rating`) stand between
/// the host's answer and the callback, as Viva's sale page describes them.
@Suite("Screens before the app returns: show_receipt, show_transaction_result, show_rating")
struct ScreenTests {
    @Test(
        "a sale with show_receipt waits on its screens before the callback; an abort then gets no answer",
        arguments: SimulatorPlatform.allCases)
    func saleWaitsOnScreens(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform, behaviour: LaneBehaviour(screens: .manual))
        let probe = fixture.probe()
        let sale = Requests.sale(amount: 1200, platform: platform, extra: [("show_receipt", "true")])
        try probe.expectOpened(try probe.open(sale))
        #expect(fixture.simulator.waitForPhase(lane: "lane", .screens, timeout: .wait))
        #expect(try probe.next(timeout: 200) == nil, "the callback came while the screens were shown")
        #expect(fixture.simulator.history(lane: "lane").map(\.outcome) == [.approved], "done at the host already")
        try probe.expectOpened(try probe.open(Requests.url(action: "abort", platform: platform)))
        #expect(fixture.simulator.waitForURLs(lane: "lane", count: 2, timeout: .wait))
        #expect(fixture.simulator.release(lane: "lane"))
        let fields = CallbackFields(try probe.callback())
        #expect(fields["action"] == "sale")
        #expect(fields["status"] == "success")
        #expect(try probe.next(timeout: 200) == nil, "the abort was answered")
    }

    @Test("screens count as the page says; none asked, or 0 ms, returns at once")
    func screenCount() throws {
        func count(_ parameters: [(String, String)]) throws -> Int {
            ScreenRequest.count(
                try RequestParsing.parse(Requests.url(action: "sale", parameters, platform: .ios)).get())
        }
        #expect(try count([]) == 0)
        #expect(try count([("show_transaction_result", "true")]) == 1)
        #expect(try count([("show_receipt", "TRUE"), ("show_transaction_result", "false")]) == 2)
        #expect(try count([("show_receipt", "true"), ("show_rating", "true")]) == 3)
        #expect(try count([("show_rating", "yes"), ("paymentMethod", "CardPresent")]) == 0)

        let fixture = try Fixture(.ios, behaviour: LaneBehaviour(screens: .manual))
        let fields = CallbackFields(try fixture.probe().request(Requests.sale(amount: 1200, platform: .ios)))
        #expect(fields["status"] == "success", "a sale asking for no screen must not wait on them")
    }
}
