import Bridge
import BridgeClient
import Foundation
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

/// A relay the test drives frame by frame (a ROUTER bound on loopback, as a relay may bind): it can
/// say whatever a hostile or broken relay would, about its own lane or another's.
final class HostileRelay {
    let socket: Socket
    let endpoint: String
    /// The routing id of the bridge's current link, learned from its `hello`.
    private(set) var peer: [UInt8]?
    /// The bridge's last `hello`, as read by ``awaitHello(otherThan:platform:answer:timeoutMs:)``.
    private(set) var lastHello: BridgeHello?
    /// Messages from the bridge that were not what a wait was looking for.
    private(set) var received: [RelayMessage] = []

    init(context: Context) throws {
        socket = try Socket(context, .router)
        try socket.setMaxMessageSize(-1)
        try socket.bind("tcp://127.0.0.1:*")
        endpoint = try socket.lastEndpoint
    }

    deinit { socket.close() }

    /// Waits for a bridge's `hello` from a link other than `previous`, answers it as an iOS relay (unless
    /// `answer` is false: a relay that ignores it, as one that saw a higher epoch does), and keeps the link's
    /// routing id.
    @discardableResult
    func awaitHello(
        otherThan previous: [UInt8]? = nil, platform: String = "ios", answer: Bool = true, timeoutMs: Int = 10_000
    ) throws -> [UInt8] {
        let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
        while Date() < deadline {
            guard let (from, message) = try next(until: deadline) else { break }
            if case .hello(let body) = message, from != previous {
                ContractRecorder.bridgeHello(body)
                lastHello = BridgeHello(body: body)
                peer = from
                if answer { try answerHello(platform: platform) }
                return from
            }
            received.append(message)
        }
        Issue.record("no hello from the bridge within \(timeoutMs) ms")
        throw HarnessError.timeout("hello")
    }

    /// Answers the bridge's `hello` on its current link, as a relay on `platform`.
    func answerHello(platform: String = "ios") throws {
        try send(.hello(body: Array(#"{"platform":"\#(platform)","app":"hostile","version":"0"}"#.utf8)))
    }

    /// Waits for the bridge to ask for a URL; returns its `ref` and URL.
    func awaitOpen(timeoutMs: Int = 10_000) throws -> (ref: String, url: String) {
        let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
        while Date() < deadline {
            guard let (_, message) = try next(until: deadline) else { break }
            if case .open(let ref, let url) = message {
                return (String(decoding: ref, as: UTF8.self), String(decoding: url, as: UTF8.self))
            }
            received.append(message)
        }
        Issue.record("no open from the bridge within \(timeoutMs) ms")
        throw HarnessError.timeout("open")
    }

    /// Waits for the bridge's `["received", n]`; the messages before it are kept in ``received``.
    func awaitReceived(_ seq: UInt64, timeoutMs: Int = 10_000) throws {
        let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
        while Date() < deadline {
            guard let (_, message) = try next(until: deadline) else { break }
            if message == .received(seq: seq) { return }
            received.append(message)
        }
        Issue.record("no received \(seq) from the bridge within \(timeoutMs) ms")
        throw HarnessError.timeout("received")
    }

    /// Every message the bridge sends within `milliseconds` (a bound on waiting for what must not come).
    func drain(forMs milliseconds: Int) throws -> [RelayMessage] {
        let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
        var messages: [RelayMessage] = []
        while let (_, message) = try next(until: deadline) { messages.append(message) }
        return messages
    }

    /// Sends a message of the terminal link to the bridge's current link.
    func send(_ message: RelayMessage) throws {
        try sendFrames(message.frames)
    }

    /// Sends raw frames (anything at all) to the bridge's current link.
    func sendFrames(_ frames: [[UInt8]]) throws {
        let peer = try #require(peer, "no bridge link yet")
        try socket.send([peer] + frames)
    }

    private func next(until deadline: Date) throws -> ([UInt8], RelayMessage)? {
        while Date() < deadline {
            try socket.setReceiveTimeout(Int32(max(1, deadline.timeIntervalSinceNow * 1000)))
            guard let frames = try socket.receive(), frames.count >= 2 else { return nil }
            if let message = try? RelayMessage(frames: frames.dropFirst()) { return (frames[0], message) }
        }
        return nil
    }
}

extension BridgeHarness {
    /// The `faults` counts the `lanes` query reports for `lane`.
    func faults(lane: String) throws -> JSONObject {
        let reply = try call(#"{"id":"faults-\#(UUID().uuidString)","action":"lanes"}"#)
        let lanes = reply.object("result")?["lanes"]?.arrayValue?.compactMap(\.objectValue) ?? []
        let entry = try #require(lanes.first { $0.string("lane") == lane }, "lane \(lane) not in the lanes answer")
        return try #require(entry.object("faults"), "no faults in the lanes answer")
    }

    /// Asks `lanes` until `lane`'s entry satisfies `predicate` (bounded).
    func awaitLane(_ lane: String, timeoutMs: Int = 10_000, until predicate: (JSONObject) -> Bool) throws {
        let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
        repeat {
            let reply = try call(#"{"id":"lanes-\#(UUID().uuidString)","action":"lanes"}"#)
            let lanes = reply.object("result")?["lanes"]?.arrayValue?.compactMap(\.objectValue) ?? []
            if let entry = lanes.first(where: { $0.string("lane") == lane }), predicate(entry) { return }
        } while Date() < deadline
        Issue.record("lane \(lane) never reached the expected state")
        throw HarnessError.timeout(lane)
    }

    /// Asks `lanes` until `lane`'s fault `name` reaches `count` (the bridge reads the relay and the
    /// command socket in the same turn, but in no promised order): an event-driven wait, bounded.
    func awaitFault(lane: String, _ name: String, atLeast count: Int, timeoutMs: Int = 10_000) throws {
        let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
        repeat {
            if (try faults(lane: lane).int(name) ?? 0) >= count { return }
        } while Date() < deadline
        Issue.record("lane \(lane) never counted \(count) \(name)")
        throw HarnessError.timeout(name)
    }
}

extension BridgeHarness {
    /// A harness with a simulated `lane-1` (given `behaviour`) and a lane `lane` whose relay is `relay`,
    /// driven by the test; returns once the relay answered the bridge's hello and the lane is up.
    static func driving(
        _ relay: HostileRelay, as lane: String, platform: InterApp.Platform,
        simulatedBehaviour behaviour: LaneBehaviour = LaneBehaviour(), journal: String? = nil
    ) throws -> BridgeHarness {
        let harness = try BridgeHarness(
            lanes: [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)],
            journal: journal
        ) { configuration in
            configuration.lanes.append(LaneConfiguration(id: lane, endpoint: relay.endpoint, platform: platform))
        }
        try relay.awaitHello()
        #expect(harness.bridge.awaitLanesUp([lane], timeout: .seconds(10)), "lane \(lane) never came up")
        return harness
    }
}
