import BridgeClient
import Foundation
import InterApp
import TerminalSimulator
import ZeroMQ

/// The demo's side of the wire, as store middleware has it: a DEALER for commands and a SUB for every event,
/// polled together on this thread. Events are printed as they arrive, replies when they are awaited.
final class DemoSession {
    let commands: CommandConnection
    let subscriber: EventSubscription
    private let poller = Poller()
    private var replies: [String: JSONObject] = [:]
    /// Every event received, in order (the subscription probe left out).
    private(set) var events: [BridgeEvent] = []
    private let print: (String) -> Void

    /// Connects to the bridge at `bound`, as a CURVE client when `curve` is given.
    init(
        context: Context, bound: (command: String, events: String), curve: ClientCurve? = nil,
        print: @escaping (String) -> Void
    ) throws {
        self.print = print
        commands = try CommandConnection(context: context, endpoint: bound.command, curve: curve)
        subscriber = try EventSubscription(context: context, endpoint: bound.events, curve: curve)
        poller.add(commands.socket)
        poller.add(subscriber.socket)
    }

    func close() {
        commands.close()
        subscriber.close()
    }

    /// A SUB's subscription reaches the bridge some time after it connects, and nothing says when: probe
    /// it (``SubscriptionProbe``) before the first command.
    func awaitSubscription(simulator: Simulator, lane: String) throws {
        let probed = try subscriber.awaitProbe(
            lane: lane, inject: { simulator.injectCallback(lane: lane, url: SubscriptionProbe.callbackURL) },
            otherEvent: { record($0) })
        guard probed else { throw DemoError("the event subscription never took effect") }
    }

    /// Sends `command` and prints what it is.
    func send(_ command: JSONObject, note: String = "") throws {
        let action = command["action"]?.stringValue ?? "?"
        let id = command["id"]?.stringValue ?? "?"
        var line = "  -> \(action) \(id)"
        if let lane = command["lane"]?.stringValue { line += " on \(lane)" }
        if let amount = command["amount"]?.intValue { line += ", \(SendAmount.euros(amount))" }
        if let timeout = command["timeoutMs"]?.intValue { line += ", timeoutMs \(timeout)" }
        if let batch = command["command"]?.stringValue { line += ", \(batch)" }
        if let name = command["batchName"]?.stringValue { line += " \(name)" }
        if let ref = command["ref"]?.stringValue { line += " of \(ref)" }
        try drain()
        print(line + note)
        try commands.send(command)
    }

    /// Waits up to `timeout` for the reply to `id`, printing events meanwhile, and prints the reply.
    ///
    /// A terminal command's reply is printed after its `result` (or `unknown`) event, which the bridge
    /// publishes as it replies, so that the account reads in order.
    func reply(to id: String, timeout: Duration = .seconds(10), quiet: Bool = false) throws -> JSONObject {
        let deadline = ContinuousClock.now + timeout
        while replies[id] == nil {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw DemoError("no reply to \(id) within \(timeout)") }
            try pump(waitMs: left.wholeMilliseconds, until: { _ in false })
        }
        let reply = replies.removeValue(forKey: id)!
        if let lane = reply["lane"]?.stringValue, let action = reply["action"]?.stringValue,
            reply["outcome"]?.stringValue != "rejected"
        {
            let event: Topic.CommandEvent = reply["outcome"]?.stringValue == "unknown" ? .unknown : .result
            _ = try? self.event(.command(lane: lane, action: action, event), id: id, timeout: .seconds(2))
        }
        if !quiet { print(Self.describe(reply: reply)) }
        return reply
    }

    /// Waits up to `timeout` for an event with `topic` (and `id`, when given); returns its body.
    @discardableResult
    func event(_ topic: Topic, id: String? = nil, timeout: Duration = .seconds(10)) throws -> JSONObject {
        let text = topic.description
        let matches: (BridgeEvent) -> Bool = { $0.topic == text && (id == nil || $0.body["id"]?.stringValue == id) }
        if let seen = events.first(where: matches) { return seen.body }
        let deadline = ContinuousClock.now + timeout
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw DemoError("no \(topic) event within \(timeout)") }
            if let found = try pump(waitMs: left.wholeMilliseconds, until: matches) { return found.body }
        }
    }

    /// Prints the events that already arrived, without waiting.
    func drain() throws { try pump(waitMs: 0, until: { _ in false }) }

    /// One poll: reads every reply and event that arrived within `waitMs` (probes skipped). Returns the first
    /// event that `until` matched.
    @discardableResult
    private func pump(waitMs: Int, until matches: (BridgeEvent) -> Bool) throws -> BridgeEvent? {
        try poller.poll(timeoutMilliseconds: waitMs)
        var matched: BridgeEvent?
        while let reply = try commands.nextReply() {
            if let id = reply.object["id"]?.stringValue { replies[id] = reply.object }
        }
        while let event = try subscriber.nextEvent() {
            guard !SubscriptionProbe.isProbe(event.topic) else { continue }
            record(event)
            if matched == nil, matches(event) { matched = event }
        }
        return matched
    }

    /// Keeps and prints an event.
    private func record(_ event: BridgeEvent) {
        events.append(event)
        print(Self.describe(event: event))
    }

    // MARK: - Printing

    /// `     event  lane-1.sale.result  seq 12  id demo-1  success`
    static func describe(event: BridgeEvent) -> String {
        let body = event.body
        var parts = [event.topic.padding(toLength: max(event.topic.count, 26), withPad: " ", startingAt: 0)]
        if let seq = body["seq"]?.intValue { parts.append("seq \(seq)") }
        if let id = body["id"]?.stringValue { parts.append("id \(id)") }
        if let outcome = body["outcome"]?.stringValue {
            parts.append(outcome + (body["late"] == .bool(true) ? " (late)" : ""))
        }
        if let name = body["batchName"]?.stringValue { parts.append("batch \(name)") }
        if let reason = body["reason"]?.stringValue { parts.append("reason \(reason)") }
        return "       event  " + parts.joined(separator: "  ")
    }

    /// `  <- sale demo-1 on lane-1: success  "Transaction successful."  12.00  VISA 479275******9993  rrn …`
    static func describe(reply: JSONObject) -> String {
        let action = reply["action"]?.stringValue ?? "?"
        let id = reply["id"]?.stringValue ?? "?"
        var line = "  <- \(action) \(id): \(reply["outcome"]?.stringValue ?? "?")"
        if reply["late"] == .bool(true) { line += " (late)" }
        if let message = reply["message"]?.stringValue { line += "  \"\(message)\"" }
        if let ref = reply["ref"]?.stringValue { line += "  ref \(ref)" }
        if let client = reply["client"]?.stringValue { line += "  (client \(client))" }
        if let error = reply["error"]?.objectValue { line += "  \(error)" }
        if let result = reply["result"]?.objectValue {
            if let amount = result["amount"]?.intValue { line += "  \(SendAmount.euros(amount))" }
            let card = [result["cardType"]?.stringValue, result["accountNumber"]?.stringValue]
                .compactMap { $0 }.filter { !$0.isEmpty }
            if !card.isEmpty { line += "  " + card.joined(separator: " ") }
            if let rrn = result["rrn"]?.stringValue, !rrn.isEmpty { line += "  rrn \(rrn)" }
            if let batch = result["batchName"]?.stringValue { line += "  batch \(batch)" }
        }
        return line
    }
}
