import BridgeClient
import Foundation
import InterApp
import ZeroMQ

/// One client thread keeping sales flowing to a bridge in a closed loop: `load-0`, `load-1`, … each
/// sent once the previous one's reply has arrived, every fourth declined (2051 cents: the simulated host
/// declines amounts ending in 51). It records what each reply said.
final class ClosedLoopSales: @unchecked Sendable {
    /// What a sale's reply said.
    struct Answer: Equatable {
        var outcome: String?
        /// `result.amount`, else the amount asked.
        var amount: Int
        var lane: String?
        var action: String?
    }

    private let condition = NSCondition()
    private var answers: [String: Answer] = [:]
    private var stopping = false
    private var running = true
    private var problem: String?

    /// Starts the client thread, sending to the command endpoint `endpoint` on `lane`.
    init(endpoint: String, lane: String) {
        let thread = Thread { [self] in
            do {
                try run(endpoint: endpoint, lane: lane)
            } catch {
                fail("the load stopped: \(error)")
            }
            condition.lock()
            running = false
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    /// The id of the `index`th sale.
    static func id(_ index: Int) -> String { "load-\(index)" }

    private func run(endpoint: String, lane: String) throws {
        let context = try Context()
        defer { context.terminate() }
        let socket = try Socket(context, .dealer)
        defer { socket.close() }
        try socket.setReceiveTimeout(10_000)
        try socket.connect(endpoint)
        var index = 0
        while !isStopping {
            let id = Self.id(index)
            let asked = index % 4 == 3 ? 2051 : 1000 + index % 50
            try socket.send([Array(#"{"id":"\#(id)","lane":"\#(lane)","action":"sale","amount":\#(asked)}"#.utf8)])
            let frames = try socket.receive()
            if let last = frames?.last { ContractRecorder.reply(last) }
            guard let last = frames?.last, let reply = try JSONValue.parse(last).objectValue else {
                fail("no reply to \(id) within 10 s")
                return
            }
            guard reply["id"]?.stringValue == id else {
                fail("a reply to \(reply["id"]?.stringValue ?? "?") came while waiting for \(id)")
                return
            }
            let answer = Answer(
                outcome: reply["outcome"]?.stringValue,
                amount: reply["result"]?.objectValue?["amount"]?.intValue ?? asked,
                lane: reply["lane"]?.stringValue, action: reply["action"]?.stringValue)
            condition.lock()
            answers[id] = answer
            condition.broadcast()
            condition.unlock()
            index += 1
        }
    }

    private var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }

    private func fail(_ message: String) {
        condition.lock()
        problem = problem ?? message
        condition.broadcast()
        condition.unlock()
    }

    /// What went wrong on the client thread, if anything.
    var failure: String? {
        condition.lock()
        defer { condition.unlock() }
        return problem
    }

    /// Every reply received so far, by id.
    var received: [String: Answer] {
        condition.lock()
        defer { condition.unlock() }
        return answers
    }

    /// Waits until `count` replies have arrived (false after `timeout` seconds, or when the load stopped).
    func waitForReplies(_ count: Int, timeout: TimeInterval = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while answers.count < count {
            if !running || !condition.wait(until: deadline) { return answers.count >= count }
        }
        return true
    }

    /// Stops after the sale in flight has its reply; returns every reply received.
    func stop(timeout: TimeInterval = 30) -> [String: Answer] {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        while running {
            if !condition.wait(until: deadline) {
                problem = problem ?? "the load did not stop within \(timeout) s"
                break
            }
        }
        return answers
    }
}
