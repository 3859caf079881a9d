import Foundation
import Testing
import ZeroMQ

@testable import TerminalSimulator

@Suite("Terminal link: hello, opened, not_opened")
struct LinkTests {
    @Test("hello answers platform, app and version", arguments: SimulatorPlatform.allCases, RelaySocketKind.allCases)
    func hello(platform: SimulatorPlatform, socket: RelaySocketKind) throws {
        let fixture = try Fixture(
            lanes: [SimulatedLane(id: "lane", platform: platform, socket: socket)], hello: false)
        let answer = try fixture.probe().hello()
        #expect(answer.count == 2)
        #expect(answer[0] == "hello")
        let body = try #require(
            try JSONSerialization.jsonObject(with: Data(answer[1].utf8)) as? [String: String])
        #expect(body["platform"] == platform.rawValue)
        #expect(body["app"] == "Viva Terminal (simulated)")
        #expect(body["version"] == Simulator.appVersion)
        #expect(fixture.simulator.waitForHello(lane: "lane", timeout: .wait))
        #expect(fixture.simulator.helloCount(lane: "lane") == 1)
    }

    @Test("a Viva request is opened with the bridge's ref and recorded", arguments: RelaySocketKind.allCases)
    func opened(socket: RelaySocketKind) throws {
        let fixture = try Fixture(.ios, socket: socket)
        let url = Requests.sale(amount: 1200, platform: .ios)
        let reference = try fixture.probe().open(url, ref: "bridge-ref-\u{1F600}")
        try fixture.probe().expectOpened(reference)
        _ = try fixture.probe().callback()
        #expect(fixture.simulator.waitForURLs(lane: "lane", count: 1, timeout: .wait))
        #expect(fixture.simulator.openedURLs(lane: "lane") == [url])
    }

    @Test(
        "anything but vivapayclient://pay/v1 is not opened",
        arguments: [
            "https://example.com/pay?amount=1",
            "vivapayclient://refund/v1?action=sale",
            "vivapayclient://pay/v2?action=sale",
            "not a url at all",
            "vivapayclient://pay/v1?amount=12 00",
            "vivapayclient://pay/v1?amount=%zz",
        ])
    func notOpened(url: String) throws {
        let fixture = try Fixture(.android)
        let reference = try fixture.probe().open(url)
        let frames = try #require(try fixture.probe().next())
        #expect(frames.count == 3)
        #expect(frames.first == "not_opened")
        #expect(frames.dropFirst().first == reference)
        #expect(frames.last?.isEmpty == false)
        #expect(fixture.simulator.openedURLs(lane: "lane") == [url])
    }

    @Test("the scheme and host are matched case-insensitively")
    func schemeCase() throws {
        let fixture = try Fixture(.ios)
        let url = Requests.sale(amount: 1200, platform: .ios).replacingOccurrences(
            of: "vivapayclient://pay", with: "VivaPayClient://PAY")
        let callback = try fixture.probe().request(url)
        #expect(CallbackFields(callback)["status"] == "success")
    }

    @Test("endpoints are the real bound ports", arguments: RelaySocketKind.allCases)
    func endpoints(socket: RelaySocketKind) throws {
        let simulator = Simulator(lanes: [
            SimulatedLane(id: "a", platform: .ios, socket: socket),
            SimulatedLane(id: "b", platform: .android, socket: socket),
        ])
        defer { simulator.stop() }
        let endpoints = try simulator.start()
        #expect(Set(endpoints.keys) == ["a", "b"])
        for (lane, endpoint) in endpoints {
            #expect(endpoint.hasPrefix("tcp://127.0.0.1:"))
            #expect(!endpoint.hasSuffix(":*"))
            #expect(simulator.endpoint(of: lane) == endpoint)
            #expect(simulator.isLinkUp(lane: lane))
        }
        #expect(try simulator.start() == endpoints)
        simulator.stop()
        simulator.stop()
        #expect(!simulator.isLinkUp(lane: "a"))
        #expect(throws: SimulatorError.self) { try simulator.start() }
    }

    @Test("duplicate lane ids are refused")
    func duplicateLanes() {
        let simulator = Simulator(lanes: [
            SimulatedLane(id: "a", platform: .ios), SimulatedLane(id: "a", platform: .android),
        ])
        #expect(throws: SimulatorError(.duplicateLane, "lane ids must be unique: [\"a\", \"a\"]")) {
            try simulator.start()
        }
    }

    @Test("a port already in use makes start throw")
    func portInUse() throws {
        let first = Simulator(lanes: [SimulatedLane(id: "a", platform: .ios)])
        defer { first.stop() }
        let endpoint = try #require(try first.start()["a"])
        let second = Simulator(lanes: [SimulatedLane(id: "a", endpoint: endpoint, platform: .ios)])
        #expect(throws: SimulatorError.self) { try second.start() }
    }

    @Test("a behaviour set before start applies")
    func behaviourBeforeStart() throws {
        let context = try Context()
        let simulator = Simulator(lanes: [SimulatedLane(id: "lane", platform: .ios)], context: context)
        simulator.setBehaviour(LaneBehaviour(fault: .notOpened(reason: "before start")), lane: "lane")
        let endpoint = try #require(try simulator.start()["lane"])
        let probe = try BridgeProbe(context: context, endpoint: endpoint, lane: "lane")
        try probe.hello()
        let reference = try probe.open(Requests.sale(amount: 100, platform: .ios))
        #expect(try probe.next() == ["not_opened", reference, "before start"])
        simulator.stop()
    }

    @Test("unknown lanes and timeouts answer without blocking for ever")
    func unknownLane() throws {
        let fixture = try Fixture(.ios)
        let simulator = fixture.simulator
        #expect(simulator.endpoint(of: "nope") == nil)
        #expect(simulator.openedURLs(lane: "nope").isEmpty)
        #expect(simulator.history(lane: "nope").isEmpty)
        #expect(simulator.openBatch(lane: "nope") == nil)
        #expect(!simulator.release(lane: "nope"))
        #expect(!simulator.waitForHello(lane: "nope", timeout: .milliseconds(10)))
        #expect(!simulator.waitForURLs(lane: "lane", count: 1, timeout: .milliseconds(20)))
        simulator.injectCallback(lane: "nope", url: "x://")
        simulator.dropLink(lane: "nope")
        #expect(!simulator.restoreLink(lane: "nope"))
    }
}

@Suite("Terminal link: frames that are no message of the link")
struct MalformedLinkTests {
    @Test("an open without its URL gets not_opened; other frames are ignored; a bare hello is answered")
    func malformed() throws {
        let fixture = try Fixture(.ios)
        let socket = fixture.probe().socket
        try socket.send(["open", "ref-no-url"])
        #expect(try fixture.probe().next() == ["not_opened", "ref-no-url", "missing URL"])
        for frames in [["open"], ["bogus", "x"], ["opened", "ref-1"], ["callback", "x://y"], ["returned"]] {
            try socket.send(frames)
        }
        try socket.send(["hello"])
        // The connection keeps order: the first answer after the ignored frames is the hello's.
        #expect(try fixture.probe().next()?.first == "hello")
        #expect(fixture.simulator.openedURLs(lane: "lane").isEmpty)
    }
}
