import Foundation
import Testing
import ZeroMQ

@testable import TerminalSimulator

/// The relay's epoch rule (PROTOCOL.md §5): two bridges linked to one relay, the one whose `hello` carried
/// the lower epoch is ignored. Two DEALER links to one ROUTER relay over TCP loopback.
@Suite("Relay epochs: a bridge with a lower epoch is ignored")
struct EpochRuleTests {
    /// A second bridge's link to the fixture's only lane.
    private func secondLink(_ fixture: Fixture) throws -> BridgeProbe {
        let endpoint = try #require(fixture.simulator.endpoint(of: "lane"))
        return try BridgeProbe(context: fixture.context, endpoint: endpoint, lane: "lane")
    }

    @Test("after a hello with epoch 5, a link whose hello carried 4 is ignored; the higher one is served")
    func lowerEpochIgnored() throws {
        let fixture = try Fixture(lanes: [SimulatedLane(id: "lane", platform: .ios)], hello: false)
        let higher = fixture.probe()
        let lower = try secondLink(fixture)
        #expect(try higher.hello(epoch: 5).first == "hello")

        try lower.sendHello(epoch: 4)
        let staleURL = Requests.sale(amount: 1200, clientTransactionId: "from-the-old-bridge", platform: .ios)
        try lower.open(staleURL)
        // The hello and the open, each counted when the relay dropped it: no wait on a silence.
        #expect(fixture.simulator.waitForStaleFrames(lane: "lane", count: 2, timeout: .wait))
        #expect(fixture.simulator.openedURLs(lane: "lane").isEmpty)

        let url = Requests.sale(amount: 1300, clientTransactionId: "from-the-new-bridge", platform: .ios)
        let callback = try higher.request(url)
        #expect(CallbackFields(callback)["clientTransactionId"] == "from-the-new-bridge")
        #expect(fixture.simulator.openedURLs(lane: "lane") == [url])
        #expect(fixture.simulator.helloCount(lane: "lane") == 1)
        #expect(try lower.next(timeout: 0) == nil)
    }

    @Test("a link that never said hello is ignored once an epoch was seen")
    func silentLinkIgnored() throws {
        let fixture = try Fixture(lanes: [SimulatedLane(id: "lane", platform: .android)], hello: false)
        try fixture.probe().hello(epoch: 2)
        let silent = try secondLink(fixture)
        try silent.open(Requests.sale(amount: 500, platform: .android))
        #expect(fixture.simulator.waitForStaleFrames(lane: "lane", count: 1, timeout: .wait))
        #expect(fixture.simulator.openedURLs(lane: "lane").isEmpty)
    }

    @Test("a hello with a higher epoch takes the lane: the earlier link is ignored from then on")
    func higherEpochTakesOver() throws {
        let fixture = try Fixture(lanes: [SimulatedLane(id: "lane", platform: .ios)], hello: false)
        let first = fixture.probe()
        let second = try secondLink(fixture)
        try first.hello(epoch: 7)
        try second.hello(epoch: 8)
        try first.open(Requests.sale(amount: 100, clientTransactionId: "old", platform: .ios))
        #expect(fixture.simulator.waitForStaleFrames(lane: "lane", count: 1, timeout: .wait))
        let url = Requests.sale(amount: 200, clientTransactionId: "new", platform: .ios)
        _ = try second.request(url)
        #expect(fixture.simulator.openedURLs(lane: "lane") == [url])
    }

    @Test("a v1.1 hello (no epoch) alone is served as before", arguments: RelaySocketKind.allCases)
    func helloWithoutEpoch(socket: RelaySocketKind) throws {
        let fixture = try Fixture(.ios, socket: socket)  // its probe said a hello without epoch
        let url = Requests.sale(amount: 1200, platform: .ios)
        let callback = try fixture.probe().request(url)
        #expect(CallbackFields(callback)["status"] == "success")
        #expect(fixture.simulator.openedURLs(lane: "lane") == [url])
        #expect(fixture.simulator.staleFrameCount(lane: "lane") == 0)
    }
}
