import Foundation
import Testing
import ZeroMQ

@testable import TerminalSimulator

/// The relay's side of the link's acknowledgement (PROTOCOL.md §5, v1.3): each callback carries the relay's
/// number, is kept until the bridge answers `received`, and is sent again, in order, after each accepted
/// `hello`.
@Suite("Relay: callbacks kept until received")
struct ReceivedTests {
    @Test(
        "callbacks are numbered from 1; those not received go again, in order, after each hello, and no more once received"
    )
    func keptUntilReceived() throws {
        let fixture = try Fixture(lanes: [SimulatedLane(id: "lane", platform: .ios)])
        let probe = fixture.probe()
        for url in ["first://", "second://", "third://"] { fixture.simulator.injectCallback(lane: "lane", url: url) }
        #expect(try probe.numberedCallback() == ("first://", "1"))
        #expect(try probe.numberedCallback() == ("second://", "2"))
        #expect(try probe.numberedCallback() == ("third://", "3"))
        try probe.received("2")

        #expect(try probe.hello().first == "hello")
        #expect(try probe.numberedCallback() == ("first://", "1"))
        #expect(try probe.numberedCallback() == ("third://", "3"))
        try probe.received("1")
        try probe.received("3")

        #expect(try probe.hello().first == "hello")
        fixture.simulator.injectCallback(lane: "lane", url: "fourth://")
        #expect(try probe.numberedCallback() == ("fourth://", "4"), "nothing went again before it")
    }

    @Test("a bridge that took over gets the callbacks the one before it never answered")
    func newBridgeGetsWhatWasNotReceived() throws {
        let fixture = try Fixture(lanes: [SimulatedLane(id: "lane", platform: .ios)], hello: false)
        let old = fixture.probe()
        try old.hello(epoch: 3)
        fixture.simulator.injectCallback(lane: "lane", url: "sold://")
        #expect(try old.numberedCallback() == ("sold://", "1"))

        let endpoint = try #require(fixture.simulator.endpoint(of: "lane"))
        let new = try BridgeProbe(context: fixture.context, endpoint: endpoint, lane: "lane")
        #expect(try new.hello(epoch: 4).first == "hello")
        #expect(try new.numberedCallback() == ("sold://", "1"))
    }
}
