import Bridge
import Foundation
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

/// A relay that lies, contradicts itself or floods: the bridge keeps every lane's money its own lane's
/// business, and its links come back by themselves.
@Suite("Hostile relays")
struct HostileRelayTests {
    /// A harness with one simulated iOS lane that never answers by itself (`lane-1`), and a lane
    /// `hostile` whose relay the test drives.
    private static func harness(_ relay: HostileRelay) throws -> BridgeHarness {
        var behaviour = LaneBehaviour()
        behaviour.fault = .neverAnswer
        return try BridgeHarness.driving(relay, as: "hostile", platform: .ios, simulatedBehaviour: behaviour)
    }

    private static func success(ctid: String, amount: Int) -> RelayMessage {
        .callback(
            url: Array(
                "interapp-callback://result?status=success&action=sale&clientTransactionId=\(ctid)&amount=\(amount)"
                    .utf8))
    }

    @Test("a relay naming another lane's sale in not_opened or opened changes nothing there")
    func foreignRefsAreIgnored() throws {
        let context = try Context()
        defer { context.terminate() }
        let relay = try HostileRelay(context: context)
        let harness = try Self.harness(relay)
        try harness.send(saleJSON(id: "victim", lane: "lane-1", amount: 1200))
        try harness.event("lane-1.sale.delivered")
        try relay.send(.notOpened(ref: Array("victim".utf8), reason: Array("evil".utf8)))
        try relay.send(.opened(ref: Array("victim".utf8)))
        try harness.awaitFault(lane: "hostile", "foreignRefs", atLeast: 2)
        harness.simulator.injectCallback(
            lane: "lane-1",
            url: "interapp-callback://result?status=success&action=sale&clientTransactionId=victim&amount=1200")
        let reply = try harness.reply(to: "victim")
        #expect(reply.string("outcome") == "success")
        #expect(
            harness.logs.hasLine(containingAll: ["relay named a command that is not outstanding", #""owner": lane-1"#]))
    }

    @Test("not_opened after opened is a contradiction: counted, and the sale still ends by its callback")
    func notOpenedAfterOpened() throws {
        let context = try Context()
        defer { context.terminate() }
        let relay = try HostileRelay(context: context)
        let harness = try Self.harness(relay)
        try harness.send(saleJSON(id: "h1", lane: "hostile", amount: 500))
        let open = try relay.awaitOpen()
        #expect(open.ref == "h1")
        try relay.send(.opened(ref: Array(open.ref.utf8)))
        try harness.event("hostile.sale.delivered")
        try relay.send(.notOpened(ref: Array(open.ref.utf8), reason: Array("changed my mind".utf8)))
        try harness.awaitFault(lane: "hostile", "contradictions", atLeast: 1)
        try relay.send(Self.success(ctid: "h1", amount: 500))
        let reply = try harness.reply(to: "h1")
        #expect(reply.string("outcome") == "success")
    }

    @Test(
        "a frame over 1 MiB drops the link, which comes back by itself and carries sales again; the other lane, on the same router, keeps its link"
    )
    func overSizeFrameLinkComesBack() throws {
        let context = try Context()
        defer { context.terminate() }
        let relay = try HostileRelay(context: context)
        let harness = try Self.harness(relay)
        let first = try #require(relay.peer)
        try relay.sendFrames([RelayMessage.Kind.callback.word, [UInt8](repeating: 0x41, count: 2 << 20)])
        try harness.event("hostile.lane.disconnected")
        try relay.awaitHello(otherThan: first)
        try harness.event("hostile.lane.connected")
        try harness.awaitFault(lane: "hostile", "linkResets", atLeast: 1)
        try harness.send(saleJSON(id: "after", lane: "hostile", amount: 700))
        let open = try relay.awaitOpen()
        try relay.send(.opened(ref: Array(open.ref.utf8)))
        try relay.send(Self.success(ctid: "after", amount: 700))
        #expect(try harness.reply(to: "after").string("outcome") == "success")
        #expect(harness.logs.text.contains("connecting anew"))

        // lane-1's relay shares the bridge's router with the hostile one: its link never dropped.
        try harness.send(saleJSON(id: "beside", lane: "lane-1", amount: 800))
        try harness.event("lane-1.sale.delivered")
        harness.simulator.injectCallback(
            lane: "lane-1",
            url: "interapp-callback://result?status=success&action=sale&clientTransactionId=beside&amount=800")
        #expect(try harness.reply(to: "beside").string("outcome") == "success")
        try harness.drainEvents()
        #expect(!harness.events.contains { $0.topic == "lane-1.lane.disconnected" })
        #expect(try harness.faults(lane: "lane-1").int("linkResets") ?? 0 == 0)
    }

    @Test("frames that are no message of the link are counted, and logged without their newlines")
    func malformedFramesAreEscaped() throws {
        let context = try Context()
        defer { context.terminate() }
        let relay = try HostileRelay(context: context)
        let harness = try Self.harness(relay)
        try relay.sendFrames([Array("evil\ncritical forged line".utf8)])
        try relay.sendFrames([RelayMessage.Kind.opened.word])
        try harness.awaitFault(lane: "hostile", "malformed", atLeast: 2)
        #expect(!harness.logs.text.contains("\ncritical forged line"))
        #expect(harness.logs.text.contains(#"evil\u{a}critical forged line"#))
    }

    @Test("a relay hello of up to 1 MiB is kept to its short fields")
    func largeHelloIsBounded() throws {
        let context = try Context()
        defer { context.terminate() }
        let relay = try HostileRelay(context: context)
        let harness = try Self.harness(relay)
        let big = String(repeating: "x", count: 400_000)
        try relay.send(.hello(body: Array(#"{"platform":"ios","app":"\#(big)","junk":"\#(big)"}"#.utf8)))
        try relay.send(.returned)
        try harness.event("hostile.lane.returned")
        let reply = try harness.call(#"{"id":"l","action":"lanes"}"#)
        let text = JSONValue.object(reply).serializedString
        #expect(text.utf8.count < 4096)
        let lanes = reply.object("result")?["lanes"]?.arrayValue?.compactMap(\.objectValue) ?? []
        let hello = lanes.first { $0.string("lane") == "hostile" }?.object("relay")
        #expect(hello?.string("app")?.count == 128)
        #expect(hello?["junk"] == nil)
    }
}
