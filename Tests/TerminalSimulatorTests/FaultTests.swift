import Foundation
import Testing
import ZeroMQ

@testable import TerminalSimulator

@Suite("Faults on demand, and the link going down and up")
struct FaultTests {
    @Test("neverAnswer: opened, the sale happens, no callback comes", arguments: SimulatorPlatform.allCases)
    func neverAnswer(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform, behaviour: LaneBehaviour(fault: .neverAnswer))
        let probe = fixture.probe()
        try probe.expectOpened(try probe.open(Requests.sale(amount: 1200, platform: platform)))
        #expect(fixture.simulator.waitForHistory(lane: "lane", count: 1, timeout: .wait))
        fixture.simulator.injectCallback(lane: "lane", url: "marker://")
        #expect(try probe.callback() == "marker://")
    }

    @Test("answerLate: the callback comes after the delay")
    func answerLate() throws {
        let fixture = try Fixture(.ios, behaviour: LaneBehaviour(fault: .answerLate(milliseconds: 150)))
        let probe = fixture.probe()
        let sent = ContinuousClock.now
        try probe.expectOpened(try probe.open(Requests.sale(amount: 1200, platform: .ios)))
        #expect(fixture.simulator.waitForHistory(lane: "lane", count: 1, timeout: .wait))
        #expect(fixture.simulator.phase(lane: "lane") == .idle)
        let callback = try probe.callback()
        #expect(ContinuousClock.now - sent >= .milliseconds(150))
        #expect(callback == fixture.simulator.history(lane: "lane").last?.callbackURL)
    }

    @Test("answerTwice: the same callback twice", arguments: SimulatorPlatform.allCases)
    func answerTwice(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform, behaviour: LaneBehaviour(fault: .answerTwice))
        let probe = fixture.probe()
        let first = try probe.request(Requests.sale(amount: 1200, platform: platform))
        #expect(try probe.callback() == first)
        #expect(fixture.simulator.history(lane: "lane").count == 1)
    }

    @Test("notOpened: the relay refuses with the reason; the app never sees it")
    func notOpened() throws {
        let fixture = try Fixture(.android, behaviour: LaneBehaviour(fault: .notOpened(reason: "app not installed")))
        let probe = fixture.probe()
        let reference = try probe.open(Requests.sale(amount: 1200, platform: .android))
        #expect(try probe.next() == ["not_opened", reference, "app not installed"])
        #expect(fixture.simulator.openedURLs(lane: "lane").count == 1)
        #expect(fixture.simulator.history(lane: "lane").isEmpty)
    }

    @Test(
        "dropLinkOnOpen: the link closes before opened; restoreLink brings it back", arguments: RelaySocketKind.allCases
    )
    func dropLinkOnOpen(socket: RelaySocketKind) throws {
        let fixture = try Fixture(.ios, behaviour: LaneBehaviour(fault: .dropLinkOnOpen), socket: socket)
        let probe = fixture.probe()
        try probe.open(Requests.sale(amount: 1200, platform: .ios))
        #expect(fixture.simulator.waitForURLs(lane: "lane", count: 1, timeout: .wait))
        #expect(!fixture.simulator.isLinkUp(lane: "lane"))
        #expect(try probe.next(timeout: 50) == nil)
        #expect(fixture.simulator.history(lane: "lane").isEmpty)

        fixture.simulator.setBehaviour(LaneBehaviour(), lane: "lane")
        #expect(fixture.simulator.restoreLink(lane: "lane"))
        #expect(fixture.simulator.helloCount(lane: "lane") == 0)
        try probe.awaitReconnection()
        try probe.hello()
        #expect(fixture.simulator.waitForHello(lane: "lane", timeout: .wait))
        #expect(CallbackFields(try probe.request(Requests.sale(amount: 1300, platform: .ios)))["status"] == "success")
    }

    @Test("dropLink closes the bridge's connection; restoreLink forgets what was in flight")
    func dropAndRestore() throws {
        let fixture = try Fixture(.ios, behaviour: LaneBehaviour(cardPresentment: .manual))
        let probe = fixture.probe()
        let endpoint = try #require(fixture.simulator.endpoint(of: "lane"))
        let monitor = try probe.socket.openMonitor(events: [.disconnected, .connected])
        try probe.expectOpened(try probe.open(Requests.sale(amount: 1200, platform: .ios)))
        #expect(fixture.simulator.waitForPhase(lane: "lane", .cardPresentment, timeout: .wait))

        fixture.simulator.dropLink(lane: "lane")
        #expect(!fixture.simulator.isLinkUp(lane: "lane"))
        #expect(try Self.nextEvent(monitor)?.kind == .disconnected)

        #expect(fixture.simulator.restoreLink(lane: "lane"))
        #expect(fixture.simulator.endpoint(of: "lane") == endpoint)
        #expect(fixture.simulator.phase(lane: "lane") == .idle)
        #expect(!fixture.simulator.release(lane: "lane"))
        #expect(try Self.nextEvent(monitor)?.kind == .connected)
        try probe.hello()
        fixture.simulator.setBehaviour(LaneBehaviour(), lane: "lane")
        #expect(CallbackFields(try probe.request(Requests.sale(amount: 1300, platform: .ios)))["amount"] == "1300")
        monitor.close()
    }

    @Test("callbacks wait for a bridge to speak, then follow its own answer")
    func outbox() throws {
        let fixture = try Fixture(lanes: [SimulatedLane(id: "lane", platform: .ios)], hello: false)
        // No bridge has spoken: the relay does not know where to send, so it keeps the callbacks.
        fixture.simulator.injectCallback(lane: "lane", url: "first://")
        fixture.simulator.injectCallback(lane: "lane", url: "second://")
        let probe = fixture.probe()
        #expect(try probe.hello().first == "hello")
        #expect(try probe.callback() == "first://")
        #expect(try probe.callback() == "second://")
    }

    @Test("callbacks go to the bridge that spoke last")
    func lastBridge() throws {
        let fixture = try Fixture(.ios, behaviour: LaneBehaviour(host: .manual))
        let first = fixture.probe()
        try first.expectOpened(try first.open(Requests.sale(amount: 1200, clientTransactionId: "kept", platform: .ios)))
        #expect(fixture.simulator.waitForPhase(lane: "lane", .host, timeout: .wait))
        let endpoint = try #require(fixture.simulator.endpoint(of: "lane"))
        let second = try BridgeProbe(context: fixture.context, endpoint: endpoint, lane: "lane")
        try second.hello()
        #expect(fixture.simulator.release(lane: "lane"))
        #expect(CallbackFields(try second.callback())["clientTransactionId"] == "kept")
        #expect(try first.next(timeout: 50) == nil)
    }

    @Test("injected callbacks and returned go out as they are", arguments: RelaySocketKind.allCases)
    func injected(socket: RelaySocketKind) throws {
        let fixture = try Fixture(.android, socket: socket)
        let probe = fixture.probe()
        fixture.simulator.injectCallback(lane: "lane", url: "Mycallbackscheme://result?status=success&amount=1 2")
        #expect(try probe.callback() == "Mycallbackscheme://result?status=success&amount=1 2")
        fixture.simulator.sendReturned(lane: "lane")
        #expect(try probe.next() == ["returned"])
    }

    static func nextEvent(_ monitor: Socket) throws -> MonitorEvent? {
        let poller = Poller()
        poller.add(monitor)
        guard try poller.poll(timeoutMilliseconds: 5000) > 0 else { return nil }
        return try monitor.receiveMonitorEvent(wait: false)
    }
}
