import Bridge
import BridgeClient
import Foundation
import InterApp
import Logging
import TerminalSimulator
import Testing
import ZeroMQ

/// A bridge, its simulated lanes, a command client and an event subscriber, all over tcp loopback.
final class BridgeHarness {
    let context: Context
    let simulator: Simulator
    let bridge: Bridge
    let bound: BoundEndpoints
    let client: Socket
    let subscriber: Socket
    let clock: ManualBridgeClock?
    let configuration: BridgeConfiguration
    let logs: LogCapture
    let journalFolder: URL
    private(set) var events: [(topic: String, body: JSONObject)] = []
    private var pendingReplies: [JSONObject] = []

    /// Starts simulated lanes, then a bridge connected to them, then a client and a subscriber, and
    /// waits until every lane's link is up.
    ///
    /// - Parameters:
    ///   - journal: the `journal:` value (a PostgreSQL URL, ``PostgresCluster/createDatabase()``); by default a
    ///     SQLite file in `journalFolder`.
    ///   - ledger: the simulated back office's ledger the lanes record their sales in.
    init(
        lanes: [SimulatedLane],
        clock: ManualBridgeClock? = nil,
        journalFolder: URL? = nil,
        journal: String? = nil,
        ledger: CloudLedger? = nil,
        configure: (inout BridgeConfiguration) -> Void = { _ in }
    ) throws {
        context = try Context()
        simulator = Simulator(lanes: lanes, seed: 7, ledger: ledger)
        let endpoints = try simulator.start()
        let folder =
            journalFolder
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-test-\(UUID().uuidString)")
        self.journalFolder = folder
        var configuration = BridgeConfiguration()
        configuration.command = "tcp://127.0.0.1:*"
        configuration.events = "tcp://127.0.0.1:*"
        configuration.journal = journal ?? folder.appendingPathComponent("journal.sqlite").path
        configuration.abortGraceMs = 300
        configuration.terminal.merchantKey = "SECRET-MERCHANT-KEY-1234"
        configuration.lanes = lanes.map { lane in
            LaneConfiguration(
                id: lane.id, endpoint: endpoints[lane.id]!, platform: lane.platform == .ios ? .ios : .android)
        }
        configure(&configuration)
        for index in configuration.lanes.indices { configuration.lanes[index].terminal = configuration.terminal }
        self.configuration = configuration
        self.clock = clock
        let logs = LogCapture()
        self.logs = logs
        var logger = Logger(label: "bridge-test") { _ in logs.handler() }
        logger.logLevel = .trace
        bridge = try Bridge(configuration: configuration, clock: clock ?? SystemBridgeClock(), logger: logger)
        bound = try bridge.start()
        client = try Socket(context, .dealer)
        try client.setReceiveTimeout(10_000)
        try client.connect(bound.command)
        subscriber = try Socket(context, .sub)
        let monitor = try subscriber.openMonitor(events: .handshakeSucceeded)
        defer {
            try? subscriber.stopMonitor()
            monitor.close()
        }
        try monitor.setReceiveTimeout(10_000)
        try subscriber.subscribe("")
        try subscriber.connect(bound.events)
        for lane in lanes {
            #expect(simulator.waitForHello(lane: lane.id, timeout: .seconds(10)), "lane \(lane.id) never connected")
        }
        #expect(bridge.awaitLanesUp(lanes.map(\.id), timeout: .seconds(10)), "a relay never answered hello")
        _ = try #require(try monitor.receiveMonitorEvent(), "the event subscriber never connected")
        try awaitSubscription(lane: lanes[0].id)
    }

    /// A SUB socket's subscription reaches the publisher some time after its handshake. Until an
    /// event arrives nobody can tell, so the harness injects a harmless probe callback (an action no
    /// command uses, published as `<lane>.probe.orphan`) until one comes through, then forgets it.
    private func awaitSubscription(lane: String) throws {
        let simulator = simulator
        let probed = try SubscriptionProbe.await(on: subscriber, lane: lane, attempts: 100) {
            simulator.injectCallback(lane: lane, url: SubscriptionProbe.callbackURL)
        }
        if !probed { Issue.record("the event subscription never took effect") }
        events.removeAll()
    }

    deinit {
        client.close()
        subscriber.close()
        bridge.halt()
        simulator.stop()
        context.terminate()
        try? FileManager.default.removeItem(at: journalFolder)
    }

    // MARK: Commands

    /// Sends a command as `[frame]` from the DEALER client.
    func send(_ json: String) throws {
        try client.send([Array(json.utf8)])
    }

    /// Sends raw bytes as a command.
    func sendRaw(_ bytes: [UInt8]) throws {
        try client.send([bytes])
    }

    /// Waits for the next reply (any id).
    func nextReply(timeoutMs: Int32 = 10_000) throws -> JSONObject {
        if !pendingReplies.isEmpty { return pendingReplies.removeFirst() }
        try client.setReceiveTimeout(timeoutMs)
        let frames = try #require(try client.receive(), "no reply within \(timeoutMs) ms")
        ContractRecorder.reply(frames.last!)
        return try Self.object(frames.last!)
    }

    /// Waits for the reply to command `id`, keeping other replies for later.
    func reply(to id: String, timeoutMs: Int32 = 10_000) throws -> JSONObject {
        if let index = pendingReplies.firstIndex(where: { $0["id"]?.stringValue == id }) {
            return pendingReplies.remove(at: index)
        }
        let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
        while Date() < deadline {
            try client.setReceiveTimeout(Int32(max(1, deadline.timeIntervalSinceNow * 1000)))
            guard let frames = try client.receive() else { break }
            ContractRecorder.reply(frames.last!)
            let reply = try Self.object(frames.last!)
            if reply["id"]?.stringValue == id { return reply }
            pendingReplies.append(reply)
        }
        Issue.record("no reply to \(id) within \(timeoutMs) ms")
        throw HarnessError.timeout("reply to \(id)")
    }

    /// Sends a command and waits for its reply.
    func call(_ json: String, id: String? = nil, timeoutMs: Int32 = 10_000) throws -> JSONObject {
        try send(json)
        let parsed = try Self.object(Array(json.utf8))
        return try reply(to: id ?? parsed["id"]!.stringValue!, timeoutMs: timeoutMs)
    }

    /// The outcome of command `ref` once `status` reports one, asked every 50 ms at most 200 times (a command a
    /// restart took up ends with no reply to this harness's client); nil if it never does.
    func finalOutcome(of ref: String) throws -> String? {
        for attempt in 0..<200 {
            let status = try call(#"{"id":"st-\#(ref)-\#(attempt)","action":"status","ref":"\#(ref)"}"#)
            if let outcome = status.object("result")?.string("outcome") { return outcome }
            usleep(50_000)
        }
        return nil
    }

    /// Asserts that no reply arrives within `ms` (used only where the contract promises silence).
    func expectNoReply(withinMs ms: Int32) throws {
        try client.setReceiveTimeout(ms)
        if let frames = try client.receive() {
            ContractRecorder.reply(frames.last!)
            Issue.record("unexpected reply: \(String(decoding: frames.last!, as: UTF8.self))")
        }
    }

    // MARK: Events

    /// Waits for an event whose topic ends with `suffix` (and satisfies `where`), returning its body.
    @discardableResult
    func event(
        _ suffix: String, timeoutMs: Int = 10_000, where predicate: (JSONObject) -> Bool = { _ in true }
    ) throws -> JSONObject {
        if let found = events.first(where: { $0.topic.hasSuffix(suffix) && predicate($0.body) }) {
            return found.body
        }
        let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
        while Date() < deadline {
            try subscriber.setReceiveTimeout(Int32(max(1, deadline.timeIntervalSinceNow * 1000)))
            guard let frames = try subscriber.receive(), frames.count == 2 else { break }
            ContractRecorder.event(topic: frames[0], body: frames[1])
            let topic = String(decoding: frames[0], as: UTF8.self)
            let body = try Self.object(frames[1])
            events.append((topic, body))
            if topic.hasSuffix(suffix) && predicate(body) { return body }
        }
        Issue.record("no event *\(suffix) within \(timeoutMs) ms; saw \(events.map(\.topic))")
        throw HarnessError.timeout("event \(suffix)")
    }

    /// Forgets the events seen so far, so that the next ``event(_:timeoutMs:where:)`` waits for a new one.
    func forgetEvents() throws {
        try drainEvents()
        events.removeAll()
    }

    /// Reads every event already queued, without waiting.
    func drainEvents() throws {
        while let frames = try subscriber.receive(wait: false), frames.count == 2 {
            ContractRecorder.event(topic: frames[0], body: frames[1])
            events.append((String(decoding: frames[0], as: UTF8.self), try Self.object(frames[1])))
        }
    }

    /// Moves the manual clock and makes the bridge look at its timers.
    func advance(byMs ms: Int64) {
        clock?.advance(byMs: ms)
        bridge.wake()
    }

    static func object(_ bytes: [UInt8]) throws -> JSONObject {
        let value = try JSONValue.parse(bytes)
        return try #require(value.objectValue, "not a JSON object: \(String(decoding: bytes, as: UTF8.self))")
    }
}

enum HarnessError: Error { case timeout(String) }

/// A sale command's JSON.
func saleJSON(id: String, lane: String, amount: Int, extra: String = "") -> String {
    #"{"id":"\#(id)","lane":"\#(lane)","action":"sale","amount":\#(amount)\#(extra)}"#
}

extension JSONObject {
    /// The string at `key`, for short assertions.
    func string(_ key: String) -> String? { self[key]?.stringValue }
    /// The nested object at `key`.
    func object(_ key: String) -> JSONObject? { self[key]?.objectValue }
    /// The integer at `key`.
    func int(_ key: String) -> Int? {
        if case .number(let number)? = self[key] { return number.intValue }
        return nil
    }
}

extension BridgeHarness {
    /// A harness with simulated lanes `lane-1`, `lane-2`, … on these platforms, on ephemeral loopback ports.
    static func lanes(_ platforms: SimulatorPlatform..., clock: ManualBridgeClock? = nil) throws -> BridgeHarness {
        try BridgeHarness(
            lanes: platforms.enumerated().map { index, platform in
                SimulatedLane(id: "lane-\(index + 1)", endpoint: "tcp://127.0.0.1:*", platform: platform)
            }, clock: clock)
    }
}
