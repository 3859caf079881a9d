import Foundation
import Testing

@testable import TerminalSimulator

@Suite("Foreground (v1.1)")
struct ForegroundTests {
    @Test(
        "the relay says opened and the app sends nothing back, on both platforms, even with a sale under way",
        arguments: [SimulatorPlatform.ios, .android])
    func noAnswer(platform: SimulatorPlatform) throws {
        var behaviour = LaneBehaviour()
        behaviour.cardPresentment = .manual
        let fixture = try Fixture(platform, behaviour: behaviour)
        let probe = fixture.probe()
        let foreground = try probe.open(Requests.url(action: "foreground", platform: platform))
        try probe.expectOpened(foreground)
        let sale = try probe.open(Requests.sale(amount: 100, platform: platform))
        try probe.expectOpened(sale)
        #expect(fixture.simulator.waitForPhase(lane: "lane", .cardPresentment, timeout: .seconds(5)))
        let during = try probe.open(Requests.url(action: "foreground", platform: platform))
        try probe.expectOpened(during)
        #expect(fixture.simulator.release(lane: "lane"))
        // The next callback on the link is the sale's: neither foreground produced one.
        let callback = CallbackFields(try probe.callback())
        #expect(callback["action"] == "sale")
        #expect(fixture.simulator.foregroundCount(lane: "lane") == 2)
        #expect(fixture.simulator.history(lane: "lane").count == 1)
    }
}
