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
    private var replies: [String: TypedReply] = [:]
    /// Every event received, in order (the subscription probe left out, and any that broke the contract).
    private(set) var events: [TypedEvent] = []
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
    func reply(to id: String, timeout: Duration = .seconds(10), quiet: Bool = false) throws -> TypedReply {
        let deadline = ContinuousClock.now + timeout
        while replies[id] == nil {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw DemoError("no reply to \(id) within \(timeout)") }
            try pump(waitMs: left.wholeMilliseconds, until: { _ in false })
        }
        let reply = replies.removeValue(forKey: id)!
        if let lane = reply.lane, let action = reply.action, reply.outcome != .rejected {
            let event: Topic.CommandEvent = reply.outcome == .unknown ? .unknown : .result
            _ = try? self.event(.command(lane: lane, action: action, event), id: id, timeout: .seconds(2))
        }
        if !quiet { print(Self.describe(reply: reply)) }
        return reply
    }

    /// Waits up to `timeout` for an event with `topic` (and `id`, when given); returns it.
    @discardableResult
    func event(_ topic: Topic, id: String? = nil, timeout: Duration = .seconds(10)) throws -> TypedEvent {
        let text = topic.description
        let matches: (TypedEvent) -> Bool = { $0.topic == text && (id == nil || $0.commandId == id) }
        if let seen = events.first(where: matches) { return seen }
        let deadline = ContinuousClock.now + timeout
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw DemoError("no \(topic) event within \(timeout)") }
            if let found = try pump(waitMs: left.wholeMilliseconds, until: matches) { return found }
        }
    }

    /// Prints the events that already arrived, without waiting.
    func drain() throws { try pump(waitMs: 0, until: { _ in false }) }

    /// One poll: reads every reply and event that arrived within `waitMs` (probes skipped). Returns the first
    /// event that `until` matched.
    @discardableResult
    private func pump(waitMs: Int, until matches: (TypedEvent) -> Bool) throws -> TypedEvent? {
        try poller.poll(timeoutMilliseconds: waitMs)
        var matched: TypedEvent?
        while let reply = try commands.nextReply() {
            do {
                let typed = try reply.typed()
                if let id = typed.id { replies[id] = typed }
            } catch {
                throw DemoError("a reply that does not follow the contract (\(error)): \(reply.object)")
            }
        }
        while let event = try subscriber.nextEvent() {
            guard !SubscriptionProbe.isProbe(event.topic) else { continue }
            if let typed = record(event), matched == nil, matches(typed) { matched = typed }
        }
        return matched
    }

    /// Keeps and prints an event; nil (printed as such) when it breaks the contract.
    @discardableResult
    private func record(_ event: BridgeEvent) -> TypedEvent? {
        do {
            let typed = try event.typed()
            events.append(typed)
            print(Self.describe(event: typed))
            return typed
        } catch {
            print("       event  \(event.topic)  (does not follow the contract: \(error))")
            return nil
        }
    }

    // MARK: - Printing

    /// `     event  lane-1.sale.result  seq 12  id demo-1  success`
    static func describe(event: TypedEvent) -> String {
        var parts = [event.topic.padding(toLength: max(event.topic.count, 26), withPad: " ", startingAt: 0)]
        parts.append("seq \(event.seq)")
        if let id = event.commandId { parts.append("id \(id)") }
        var reason: String?
        switch event.kind {
        case .end(_, let reply):
            parts.append(reply.outcome.rawValue + (reply.late ? " (late)" : ""))
            reason = reply.reason?.rawValue
        case .batch(_, _, let name, _, let closedBecause, _):
            if let name { parts.append("batch \(name)") }
            reason = closedBecause
        case .journal(_, _, let why):
            reason = why
        default:
            break
        }
        if let reason { parts.append("reason \(reason)") }
        return "       event  " + parts.joined(separator: "  ")
    }

    /// `  <- sale demo-1 on lane-1: success  "Transaction successful."  12.00  VISA 479275******9993  rrn …`
    static func describe(reply: TypedReply) -> String {
        var line = "  <- \(reply.action ?? "?") \(reply.id ?? "?"): \(reply.outcome.rawValue)"
        if reply.late { line += " (late)" }
        if let message = reply.message { line += "  \"\(message)\"" }
        if let ref = reply.ref { line += "  ref \(ref)" }
        if let client = reply.client { line += "  (client \(client))" }
        if let error = reply.error { line += "  \(error.code): \(error.message)" }
        if let result = reply.result.map(TypedReply.CallbackResult.init(fields:)) {
            if let amount = result.amount { line += "  \(SendAmount.euros(amount))" }
            let card = [result.cardType, result.accountNumber].compactMap { $0 }.filter { !$0.isEmpty }
            if !card.isEmpty { line += "  " + card.joined(separator: " ") }
            if let rrn = result.rrn, !rrn.isEmpty { line += "  rrn \(rrn)" }
            if let batch = result.batchName { line += "  batch \(batch)" }
        }
        return line
    }
}
