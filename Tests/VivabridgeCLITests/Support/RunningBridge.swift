import BridgeClient
import Foundation
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

/// A running `vivabridge run --config` against simulated lanes of the test's own, on ephemeral ports.
final class RunningBridge {
    let simulator: Simulator
    let folder: URL
    let child: ChildProcess
    let command: String
    /// Where the bridge publishes its events.
    let events: String
    /// The configuration file the bridge was started with (a test may rewrite it before a SIGHUP).
    let config: URL
    /// Every simulated relay's endpoint by its simulated lane's id (the configured lanes and the spares).
    let relays: [String: String]
    /// The configuration's text before its `lanes:`.
    private let head: String

    /// Starts the simulated relays `lanes` and `spareRelays` (all iOS, behaving as `behaviour`), then a
    /// bridge configured with `lanes` only, each linked to its namesake relay: a test may give a spare to
    /// the bridge by a SIGHUP (``writeLanes(_:)``).
    init(
        behaviour: LaneBehaviour = .zeroDelay, grace: Int = 30_000, extra: String = "",
        environment: [String: String] = [:], lanes: [String] = ["lane-1"], spareRelays: [String] = []
    ) throws {
        simulator = Simulator(
            lanes: (lanes + spareRelays).map {
                SimulatedLane(id: $0, endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)
            })
        relays = try simulator.start()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        config = folder.appendingPathComponent("bridge.yaml")
        head = """
            command: tcp://127.0.0.1:*
            events: tcp://127.0.0.1:*
            journal: \(folder.path)/journal.sqlite
            shutdownGraceMs: \(grace)
            \(extra)
            terminal: {merchantKey: RUN-TEST-KEY}

            """
        try Self.yaml(head, relays, lanes.map { ($0, $0) }).write(to: config, atomically: true, encoding: .utf8)
        child = try ChildProcess(["run", "--config", config.path], environment: environment)
        let line = try #require(
            child.waitForLine(containing: "commands (ROUTER):"), "the bridge never said where it listens")
        command = String(line.split(separator: " ").last!)
        let eventsLine = try #require(child.waitForLine(containing: "events   (XPUB):"), "no events endpoint")
        events = String(eventsLine.split(separator: " ").last!)
        for lane in lanes {
            #expect(simulator.waitForHello(lane: lane, timeout: .seconds(10)), "lane \(lane) never connected")
        }
        // Its log, not the lanes answer: a bridge with security answers only the clients it knows.
        for lane in lanes {
            #expect(
                child.waitForErrorLine(containingAll: ["lane link up: its relay answered hello", lane], timeout: 10)
                    != nil, "lane \(lane)'s relay never answered hello")
        }
    }

    /// Rewrites the configuration file with these lanes (iOS), each linked to the simulated relay named
    /// `relay`, and everything else as at start.
    func writeLanes(_ lanes: [(id: String, relay: String)]) throws {
        try Self.yaml(head, relays, lanes).write(to: config, atomically: true, encoding: .utf8)
    }

    private static func yaml(_ head: String, _ relays: [String: String], _ lanes: [(id: String, relay: String)])
        -> String
    {
        var yaml = head + "lanes:\n"
        for lane in lanes {
            yaml += "  - {id: \(lane.id), endpoint: \"\(relays[lane.relay]!)\", platform: ios}\n"
        }
        return yaml
    }

    /// Sends one command from a fresh DEALER and returns the reply.
    func call(_ json: String) throws -> JSONObject? {
        let context = try Context()
        defer { context.terminate() }
        let socket = try Socket(context, .dealer)
        defer { socket.close() }
        try socket.setReceiveTimeout(10_000)
        try socket.connect(command)
        try socket.send([Array(json.utf8)])
        guard let frames = try socket.receive() else { return nil }
        ContractRecorder.reply(frames.last!)
        return try JSONValue.parse(frames.last!).objectValue
    }

    deinit {
        simulator.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

extension RunningBridge {
    /// A subscriber to every event of the bridge, returned once its subscription is in effect (it heard
    /// the first `bridge.heartbeat`, published every 2 s).
    func subscribe() throws -> EventTap {
        let tap = try EventTap(events)
        _ = try #require(try tap.await(Topic.heartbeat.description), "no bridge.heartbeat heard")
        return tap
    }
}

/// A SUB socket on a bridge's events, read by topic.
final class EventTap {
    private let context: Context
    private let socket: Socket

    /// Subscribes to everything at `endpoint`; `reconnectMs` retries a connection nobody accepts yet that often
    /// (ZeroMQ's default is 100 ms), for a test that must hear an endpoint's first events soon after it binds.
    init(_ endpoint: String, reconnectMs: Int32? = nil) throws {
        context = try Context()
        socket = try Socket(context, .sub)
        if let reconnectMs { try socket.setReconnectInterval(reconnectMs) }
        try socket.subscribe("")
        try socket.connect(endpoint)
    }

    /// Waits for the next event on `topic` (skipping others) up to `timeout` seconds; returns its body.
    func await(_ topic: String, timeout: TimeInterval = 10) throws -> JSONObject? {
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            try socket.setReceiveTimeout(Int32(max(1, deadline.timeIntervalSinceNow * 1000)))
            guard let frames = try socket.receive(), frames.count == 2 else { return nil }
            ContractRecorder.event(topic: frames[0], body: frames[1])
            if String(decoding: frames[0], as: UTF8.self) == topic { return try JSONValue.parse(frames[1]).objectValue }
        }
        return nil
    }

    deinit {
        socket.close()
        context.terminate()
    }
}
