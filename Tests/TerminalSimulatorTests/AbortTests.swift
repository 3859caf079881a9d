import Foundation
import Testing

@testable import TerminalSimulator

@Suite("Aborts: before the card is read, after, and with nothing to abort")
struct AbortTests {
    static func abortURL(_ platform: SimulatorPlatform) -> String {
        Requests.url(action: "abort", platform: platform)
    }

    @Test("an abort during card presentment stops the sale", arguments: SimulatorPlatform.allCases)
    func beforeCardRead(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform, behaviour: LaneBehaviour(cardPresentment: .manual))
        let probe = fixture.probe()
        try probe.expectOpened(try probe.open(Requests.sale(amount: 1200, tip: 100, platform: platform)))
        #expect(fixture.simulator.waitForPhase(lane: "lane", .cardPresentment, timeout: .wait))
        let callback = try probe.request(Self.abortURL(platform))
        if platform == .ios {
            #expect(callback == "interapp-callback://result?action=abort&status=success&message=aborted")
        } else {
            #expect(
                callback
                    == "mycallbackscheme://result?status=fail&message=(-57) ABORTED&action=ABORT"
                    + "&amount=1200&tipAmount=100"
            )
        }
        #expect(fixture.simulator.phase(lane: "lane") == .idle)
        #expect(fixture.simulator.history(lane: "lane").map(\.outcome) == [.aborted])
        #expect(!fixture.simulator.release(lane: "lane"))
        // Nothing more comes: the next frame is the marker.
        fixture.simulator.injectCallback(lane: "lane", url: "marker://")
        #expect(try probe.callback() == "marker://")
    }

    @Test("with saleCallbackAfterAbort the sale's failure follows the abort", arguments: SimulatorPlatform.allCases)
    func saleCallbackAfterAbort(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(
            platform, behaviour: LaneBehaviour(cardPresentment: .manual, saleCallbackAfterAbort: true))
        let probe = fixture.probe()
        try probe.expectOpened(
            try probe.open(Requests.sale(amount: 1200, clientTransactionId: "pos-77", platform: platform)))
        #expect(fixture.simulator.waitForPhase(lane: "lane", .cardPresentment, timeout: .wait))
        let abort = CallbackFields(try probe.request(Self.abortURL(platform)))
        #expect(abort["message"] == (platform == .ios ? "aborted" : "(-57) ABORTED"))
        let sale = CallbackFields(try probe.callback())
        #expect(sale["action"] == "sale")
        #expect(sale["status"] == (platform == .ios ? "failed" : "fail"))
        #expect(sale["message"] == (platform == .ios ? "Transaction aborted." : "(-57) ABORTED"))
        #expect(sale["clientTransactionId"] == "pos-77")
    }

    @Test("an abort once the card is read gets no answer; the sale completes", arguments: SimulatorPlatform.allCases)
    func afterCardRead(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform, behaviour: LaneBehaviour(host: .manual))
        let probe = fixture.probe()
        try probe.expectOpened(
            try probe.open(Requests.sale(amount: 1200, clientTransactionId: "pos-5", platform: platform)))
        #expect(fixture.simulator.waitForPhase(lane: "lane", .host, timeout: .wait))
        try probe.expectOpened(try probe.open(Self.abortURL(platform)))
        #expect(fixture.simulator.waitForURLs(lane: "lane", count: 2, timeout: .wait))
        #expect(fixture.simulator.release(lane: "lane"))
        // Frames keep their order: had the abort been answered, its answer would come first.
        let fields = CallbackFields(try probe.callback())
        #expect(fields["action"] == "sale")
        #expect(fields["status"] == "success")
        #expect(fields["clientTransactionId"] == "pos-5")
        #expect(fixture.simulator.history(lane: "lane").map(\.outcome) == [.approved])
    }

    @Test("an abort with nothing in flight", arguments: SimulatorPlatform.allCases)
    func nothingToAbort(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform)
        let callback = try fixture.probe().request(Self.abortURL(platform))
        if platform == .ios {
            #expect(callback == "interapp-callback://result?action=abort&status=success&message=nothing%20to%20abort")
        } else {
            #expect(callback == "mycallbackscheme://result?status=fail&message=(-55) NOTHING_TO_ABORT&action=ABORT")
        }
    }

    @Test("an aborted lane takes the next sale")
    func afterAbort() throws {
        let fixture = try Fixture(.ios, behaviour: LaneBehaviour(cardPresentment: .manual))
        let probe = fixture.probe()
        try probe.expectOpened(try probe.open(Requests.sale(amount: 1200, platform: .ios)))
        #expect(fixture.simulator.waitForPhase(lane: "lane", .cardPresentment, timeout: .wait))
        _ = try probe.request(Self.abortURL(.ios))
        fixture.simulator.setBehaviour(LaneBehaviour(), lane: "lane")
        #expect(CallbackFields(try probe.request(Requests.sale(amount: 1300, platform: .ios)))["status"] == "success")
    }
}
