import ArgumentParser
import BridgeClient
import Foundation
import InterApp
import ZeroMQ

/// `vivabridge watch`: a live table of the lanes, from the bridge's events.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Show the lanes live, from the bridge's events (or print the events as JSON lines).",
        discussion: """
            The table has one row per lane: its link (up or down), the command in flight (action and id), how \
            its last command ended, its open batch and the time of its last event. It starts from a `lanes` \
            query on the command socket and follows the events; when it finds that it missed events (a gap in \
            `seq`) or that the bridge restarted (a new `epoch`) it says so and asks `lanes` again. With --lane \
            only that lane's events arrive, so gaps in `seq` are expected and only a restart is noticed.

            On a terminal the table is redrawn in place; otherwise it is printed again after each change.
            --json prints every event as one line, {"topic":…,"event":{…}}, for jq and other programs; a gap \
            or a restart is then said on standard error.
            Runs until Ctrl-C (SIGINT) or SIGTERM, then exits 0.
            """
    )

    @Option(help: "Only this lane (subscribes to the topic prefix LANE.).")
    var lane: String?

    @Flag(help: "Print one event per line as JSON, {\"topic\":…,\"event\":{…}}, instead of the table.")
    var json = false

    @OptionGroup var endpoints: ClientEndpointOptions

    @Option(name: .customLong("events"), help: .hidden)
    var legacyEvents: String?

    @Option(name: .customLong("command"), help: .hidden)
    var legacyCommand: String?

    /// The event endpoint (flags, `--config`, `VIVABRIDGE_EVENTS`, the default).
    var events: String { (try? endpoints.events(legacy: legacyEvents)) ?? ClientEndpointOptions.defaultEvents }

    /// The command endpoint, for the lanes query.
    var commandEndpoint: String {
        (try? endpoints.command(legacy: legacyCommand)) ?? ClientEndpointOptions.defaultCommand
    }

    func validate() throws {
        _ = try endpoints.events(legacy: legacyEvents)
        _ = try endpoints.command(legacy: legacyCommand)
        _ = try endpoints.curve()
        if let lane, lane.isEmpty || lane.contains(".") || lane.contains(" ") {
            throw ValidationError("--lane \(lane): a lane id has no dot and no space")
        }
    }

    func run() throws {
        let stop = WatchStopSignal()
        let context = try Context()
        defer { context.terminate() }
        let loop = try WatchLoop(context: context, options: self)
        defer { loop.close() }
        try loop.run(until: stop)
    }
}

/// The socket side of `watch`: a SUB for the events and a DEALER for `lanes`, polled on this thread.
private final class WatchLoop {
    let options: WatchCommand
    let subscriber: EventSubscription
    let asker: CommandConnection
    let poller = Poller()
    var state: WatchState
    /// The `lanes` query waiting for its answer, and when it was sent.
    var pending: (id: String, sentAt: ContinuousClock.Instant)?
    var queries = 0
    var unreachableNoted = false
    /// When a `lanes` query could first not be sent (no bridge connected), if it still cannot.
    var unsentSince: ContinuousClock.Instant?
    let answerTimeout = Duration.seconds(5)

    init(context: Context, options: WatchCommand) throws {
        self.options = options
        state = WatchState(laneFilter: options.lane)
        // --json asks for no snapshot: its output is the events alone.
        state.needsSnapshot = !options.json
        let curve = try options.endpoints.curve()
        let prefixes = options.lane.map { ["\($0).", Topic.heartbeat.description] } ?? [""]
        subscriber = try EventSubscription(context: context, endpoint: options.events, curve: curve, prefixes: prefixes)
        asker = try CommandConnection(
            context: context, endpoint: options.commandEndpoint, curve: curve, immediate: true)
        poller.add(subscriber.socket)
        poller.add(asker.socket)
    }

    func close() {
        subscriber.close()
        asker.close()
    }

    func run(until stop: WatchStopSignal) throws {
        if !options.json { draw() }
        while !stop.isRaised {
            var changed = options.json ? false : askForLanesIfNeeded()
            try poller.poll(timeoutMilliseconds: 200)
            if !options.json, state.checkSilence(atMs: Self.nowMs()) { changed = true }
            while let event = try subscriber.nextRawEvent() {
                changed = received(topic: event.topic, body: event.body) || changed
            }
            while let reply = try asker.nextReply() {
                let answer = try? reply.typed()
                if answer?.id == pending?.id { pending = nil }
                // One that breaks the contract is read again for the note that says what is wrong.
                state = answer.map { state.applying(snapshot: $0) } ?? state.applying(snapshot: reply.object)
                unreachableNoted = false
                changed = true
            }
            if changed { draw() }
        }
    }

    /// One event: printed as a JSON line (`--json`), and folded into the state. True when the table changed.
    private func received(topic: String, body bytes: [UInt8]) -> Bool {
        if options.json { WatchTerminal.write(WatchJSONLine.line(topic: topic, body: bytes) + "\n") }
        guard let body = try? JSONValue.parse(bytes).objectValue else { return false }
        let changed = state.receive(BridgeEvent(topic: topic, body: body), atMs: Self.nowMs())
        guard options.json else { return changed }
        if state.needsSnapshot {
            // Standard output carries the events alone: a gap or a restart is said on standard error.
            let note = state.notes.last?.replacingOccurrences(of: ": asking for the lanes again", with: "")
            WatchTerminal.writeError("vivabridge watch: \(note ?? "missed events") (ask lanes and status)\n")
            state.needsSnapshot = false
        }
        return false
    }

    /// The watcher's monotonic clock, in milliseconds.
    private static func nowMs() -> Int64 { Int64(DispatchTime.now().uptimeNanoseconds / 1_000_000) }

    /// Sends `lanes` when the state needs a snapshot and none is pending; gives up on an answer after 5 s.
    private func askForLanesIfNeeded() -> Bool {
        var changed = false
        if let sent = pending, ContinuousClock.now - sent.sentAt > answerTimeout {
            pending = nil
            if !unreachableNoted {
                state = state.noting("no answer to lanes from \(options.commandEndpoint): is the bridge running?")
                unreachableNoted = true
                changed = true
            }
        }
        guard state.needsSnapshot, pending == nil else { return changed }
        queries += 1
        let id = "watch-\(getpid())-\(queries)"
        let query: JSONObject = ["id": .string(id), "action": "lanes"]
        // ZMQ_IMMEDIATE: with no bridge connected this fails at once, and is tried again next turn.
        if (try? asker.send(query, wait: false)) == true {
            pending = (id, ContinuousClock.now)
            unsentSince = nil
        } else {
            let since = unsentSince ?? ContinuousClock.now
            unsentSince = since
            if !unreachableNoted, ContinuousClock.now - since > .seconds(2) {
                state = state.noting("the bridge is not reachable at \(options.commandEndpoint) (yet)")
                unreachableNoted = true
                changed = true
            }
        }
        return changed
    }

    private func draw() {
        let header =
            "vivabridge watch: events \(options.events), lanes from \(options.commandEndpoint)"
            + (options.lane.map { ", lane \($0) only" } ?? "") + " (Ctrl-C to stop)\n"
        let table = WatchTable.render(state, width: WatchTerminal.width)
        if WatchTerminal.isTTY {
            WatchTerminal.write(WatchTerminal.clearScreen + header + table)
        } else {
            WatchTerminal.write(header + table + "\n")
        }
    }
}
