import Bridge
import BridgeClient
import Foundation
import InterApp
import Logging
import TerminalSimulator
import Testing
import ZeroMQ

/// An in-process bridge and its simulated lanes on ephemeral loopback ports, for driving the `vivabridge`
/// tools as child processes; with a subscriber of its own to wait on events.
final class CLIBridge {
    let context: Context
    let simulator: Simulator
    let bridge: Bridge
    let bound: BoundEndpoints
    let subscriber: Socket
    let folder: URL

    /// Starts `lanes`, then a bridge connected to them, then a subscriber whose subscription is in effect. The
    /// journal is `journal.sqlite` in ``folder``, or `journal` (a PostgreSQL URL) when given; the lanes record
    /// their sales in `ledger` (Viva's simulated back office) when given.
    init(lanes: [SimulatedLane], journal: String? = nil, ledger: CloudLedger? = nil) throws {
        context = try Context()
        simulator = Simulator(lanes: lanes, seed: 11, ledger: ledger)
        let endpoints = try simulator.start()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-cli-\(UUID().uuidString)")
        var yaml = """
            command: tcp://127.0.0.1:*
            events: tcp://127.0.0.1:*
            journal: \(journal ?? folder.path + "/journal.sqlite")
            abortGraceMs: 200
            terminal: {merchantKey: CLI-TEST-KEY}
            lanes:

            """
        for lane in lanes {
            yaml += "  - {id: \(lane.id), endpoint: \"\(endpoints[lane.id]!)\", platform: \(lane.platform.rawValue)}\n"
        }
        let configuration = try BridgeConfiguration.load(yaml: yaml)
        bridge = try Bridge(
            configuration: configuration,
            logger: Logger(label: "cli-test", factory: { _ in SwiftLogNoOpLogHandler() }))
        bound = try bridge.start()
        subscriber = try Socket(context, .sub)
        try subscriber.subscribe("")
        try subscriber.connect(bound.events)
        for lane in lanes {
            #expect(simulator.waitForHello(lane: lane.id, timeout: .seconds(10)), "lane \(lane.id) never connected")
        }
        #expect(bridge.awaitLanesUp(lanes.map(\.id), timeout: .seconds(10)), "a relay never answered hello")
        let subscribed = try awaitSubscription(lane: lanes[0].id)
        try #require(subscribed, "the event subscription never took effect")
    }

    deinit {
        subscriber.close()
        bridge.halt()
        simulator.stop()
        context.terminate()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A SUB's subscription takes effect some time after it connects: inject a harmless callback (published
    /// as `<lane>.probe.orphan`) until one comes through.
    private func awaitSubscription(lane: String) throws -> Bool {
        try SubscriptionProbe.await(on: subscriber, lane: lane) { injectProbe(lane: lane) }
    }

    /// Sends a callback that matches no command: the bridge publishes it as `<lane>.probe.orphan`.
    func injectProbe(lane: String) {
        simulator.injectCallback(lane: lane, url: SubscriptionProbe.callbackURL)
    }

    /// Waits for an event whose topic is `topic`; returns its body.
    @discardableResult
    func event(_ topic: String, timeoutMs: Int32 = 10_000) throws -> JSONObject? {
        try subscriber.setReceiveTimeout(timeoutMs)
        while let frames = try subscriber.receive() {
            if frames.count == 2 { ContractRecorder.event(topic: frames[0], body: frames[1]) }
            if String(decoding: frames[0], as: UTF8.self) == topic { return try JSONValue.parse(frames[1]).objectValue }
        }
        return nil
    }

    /// Runs `vivabridge send ARGUMENTS --endpoint <this bridge>` to its end; returns its exit status and output.
    func send(_ arguments: [String]) throws -> (status: Int32?, output: String, error: String) {
        let child = try ChildProcess(["send"] + arguments + ["--endpoint", bound.command])
        let status = child.waitForExit()
        return (status, child.output, child.errorOutput)
    }

    /// A lane whose phases last as given.
    static func lane(
        _ id: String = "lane-1", _ platform: SimulatorPlatform = .ios, card: PhaseDuration = .milliseconds(0),
        host: PhaseDuration = .milliseconds(0)
    ) -> SimulatedLane {
        SimulatedLane(
            id: id, endpoint: "tcp://127.0.0.1:*", platform: platform,
            behaviour: LaneBehaviour(cardPresentment: card, host: host))
    }
}
