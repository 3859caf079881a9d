import BridgeClient
import Foundation
import ZeroMQ

/// What one load client does: its lanes, its window, closed loop or paced, and when to measure.
struct LoadPlan: Sendable {
    var endpoint: String
    var client: Int
    /// Lane numbers this client owns; a lane runs one sale at a time, so clients never share a lane.
    var lanes: [Int]
    /// Sales in flight at most (closed loop).
    var window: Int
    /// Sales per second this client sends on a fixed schedule instead of a closed loop.
    var ratePerSecond: Double?
    /// Replies to sales sent from here on count (warm-up before).
    var measureFromNs: UInt64
    /// Nothing new is sent from here on.
    var endNs: UInt64
    /// In a counted run: stop once this counter reaches `stopAfter` completed sales.
    var counter: SharedCounter?
    var stopAfter: Int = .max
    var recordLatency = true
    /// CURVE keys for a bridge with security; nil for a plain socket.
    var curve: ClientCurve? = nil
}

/// What one load client saw.
struct LoadResult: Sendable {
    var sent = 0
    /// Replies to sales sent inside the measured window.
    var completedInWindow = 0
    var replies = 0
    var nonSuccess = 0
    var firstNonSuccess: String?
    var samples: [UInt64] = []
    var replyBytes = 0
    var error: String?
}

/// A DEALER client on its own thread keeping `window` sales in flight (each a new id), or sending at a
/// fixed rate, and timing each sale from its send to its reply.
enum LoadClient {
    static func start(context: Context, plan: LoadPlan) -> Worker<LoadResult> {
        Worker(name: "bench-client-\(plan.client)") { run(context: context, plan: plan) }
    }

    private static func run(context: Context, plan: LoadPlan) -> LoadResult {
        var result = LoadResult()
        let socket: Socket
        do {
            socket = try Socket(context, .dealer)
            try plan.curve?.apply(to: socket)
            try socket.setSendHighWaterMark(100_000)
            try socket.setReceiveHighWaterMark(100_000)
            try socket.connect(plan.endpoint)
        } catch {
            result.error = "client \(plan.client): \(error)"
            return result
        }
        defer { socket.close() }
        let poller = Poller()
        poller.add(socket)
        if plan.recordLatency {
            let seconds = Monotonic.seconds(plan.endNs &- plan.measureFromNs)
            result.samples.reserveCapacity(min(4_000_000, Int(seconds * (plan.ratePerSecond ?? 40_000)) + 1024))
        }

        // Per lane: the send time of its sale in flight (0: idle). Free lanes rotate in a ring.
        let maxLane = (plan.lanes.max() ?? 0) + 1
        var sentAt = [UInt64](repeating: 0, count: maxLane)
        var ring = plan.lanes
        var ringHead = 0
        var ringCount = plan.lanes.count
        var inFlight = 0
        var sequence = 0
        let window = max(1, min(plan.window, plan.lanes.count))
        let interval = plan.ratePerSecond.map { UInt64(1e9 / $0) }
        var nextSendNs = Monotonic.now()
        let commands = plan.lanes.map { lane in CommandTemplate(client: plan.client, lane: lane) }
        var templateByLane = [Int](repeating: 0, count: maxLane)
        for (index, lane) in plan.lanes.enumerated() { templateByLane[lane] = index }

        func sendOne(now: UInt64) -> Bool {
            guard ringCount > 0 else { return false }
            let lane = ring[ringHead]
            ringHead = (ringHead + 1) % ring.count
            ringCount -= 1
            sequence += 1
            let frame = commands[templateByLane[lane]].frame(sequence: sequence)
            sentAt[lane] = Monotonic.now()
            do {
                guard try socket.send([frame], wait: false) else {
                    result.error = "client \(plan.client): the command socket would block"
                    return false
                }
            } catch {
                result.error = "client \(plan.client): \(error)"
                return false
            }
            inFlight += 1
            result.sent += 1
            return true
        }

        func handle(_ body: [UInt8]) {
            let now = Monotonic.now()
            guard let id = JSONScan.stringValue(JSONScan.idKey, in: body), let lane = CommandId.lane(in: id),
                lane < maxLane, sentAt[lane] != 0
            else {
                result.nonSuccess += 1
                if result.firstNonSuccess == nil { result.firstNonSuccess = String(decoding: body, as: UTF8.self) }
                return
            }
            let started = sentAt[lane]
            sentAt[lane] = 0
            ring[(ringHead + ringCount) % ring.count] = lane
            ringCount += 1
            inFlight -= 1
            result.replies += 1
            result.replyBytes = body.count
            if JSONScan.find(JSONScan.success, in: body) == nil {
                result.nonSuccess += 1
                if result.firstNonSuccess == nil { result.firstNonSuccess = String(decoding: body, as: UTF8.self) }
            }
            if started >= plan.measureFromNs && now <= plan.endNs {
                result.completedInWindow += 1
                if plan.recordLatency { result.samples.append(now - started) }
            }
            plan.counter?.add(1)
        }

        while result.error == nil {
            let now = Monotonic.now()
            if now >= plan.endNs { break }
            if let counter = plan.counter, counter.current >= plan.stopAfter { break }
            if let interval {
                while nextSendNs <= now, sendOne(now: now) { nextSendNs += interval }
            } else {
                while inFlight < window, sendOne(now: now) {}
            }
            var timeoutMs = 100
            if interval != nil {
                // Rounded up: a send may leave up to 1 ms late (its latency counts from the real send), but the
                // client never spins on a zero timeout and steals a core from what it measures.
                timeoutMs = nextSendNs > now ? Int((nextSendNs - now + 999_999) / 1_000_000) : (ringCount > 0 ? 0 : 100)
            }
            timeoutMs = min(timeoutMs, Int((plan.endNs - now) / 1_000_000) + 1)
            do {
                guard try poller.poll(timeoutMilliseconds: timeoutMs) > 0 else { continue }
                while let frames = try socket.receive(wait: false) {
                    if let body = frames.last { handle(body) }
                }
            } catch {
                result.error = "client \(plan.client): \(error)"
            }
        }
        return result
    }
}

/// A sale command's bytes with a slot for the sequence number of its id.
private struct CommandTemplate {
    let bytes: [UInt8]
    let sequenceOffset: Int

    init(client: Int, lane: Int) {
        let id = CommandId.text(client: client, lane: lane, sequence: 0)
        let json = Wire.saleJSON(id: id, lane: lane)
        bytes = Array(json.utf8)
        sequenceOffset = JSONScan.find(Array(id.utf8), in: bytes)! + CommandId.length - 9
    }

    func frame(sequence: Int) -> [UInt8] {
        var out = bytes
        var rest = sequence
        for index in stride(from: sequenceOffset + 8, through: sequenceOffset, by: -1) {
            out[index] = UInt8(48 + rest % 10)
            rest /= 10
        }
        return out
    }
}
