import ZeroMQ

/// One command sent to whichever of several bridges answers: the Lazy Pirate pattern of the ZeroMQ guide,
/// for two bridges sharing a journal (one active, one standby; PROTOCOL.md "Two bridges").
///
/// Each attempt is a DEALER of its own to one endpoint, with `ZMQ_IMMEDIATE` (the command goes out only on
/// a completed connection, never into a queue for an endpoint nobody bound) and linger 0. The command's bytes
/// are the same at every attempt, so its `id` is too: a bridge that already has the command joins it or
/// answers it from its journal, and never sends it to the terminal a second time. An attempt ends with:
/// - the reply to `id`: that is the answer;
/// - no reply within ``attemptMs``: the socket is closed and the next endpoint tried, round-robin;
/// - at once, a connection refused, or one that dropped after the command went out (the bridge stopped, or
///   ZMTP heartbeats found it gone): the next endpoint. So that a client never spins between bridges that are
///   all down, an attempt that follows a whole round of such early endings waits its full ``attemptMs`` (and
///   sends the command if its bridge comes up meanwhile).
///
/// It stops after ``maxAttempts`` attempts or ``totalMs``, whichever comes first.
public struct FailoverRequest: Sendable {
    /// The bridges' command (ROUTER) endpoints, tried in this order, round-robin.
    public var endpoints: [String]
    /// The CURVE keys to connect with, or nil for plain sockets.
    public var curve: ClientCurve?
    /// How long one attempt waits for its reply.
    public var attemptMs: Int
    /// The most attempts, the first one included.
    public var maxAttempts: Int
    /// How long all attempts together may take.
    public var totalMs: Int

    /// ZMTP heartbeats of each attempt's connection, so that a bridge whose host went away is left within
    /// ``heartbeatTimeoutMs`` rather than at the end of the attempt.
    static let heartbeatIntervalMs: Int32 = 1000
    static let heartbeatTimeoutMs: Int32 = 3000

    /// A request to `endpoints` (at least one).
    public init(endpoints: [String], curve: ClientCurve? = nil, attemptMs: Int, maxAttempts: Int, totalMs: Int) {
        precondition(!endpoints.isEmpty, "a FailoverRequest needs at least one endpoint")
        self.endpoints = endpoints
        self.curve = curve
        self.attemptMs = max(1, attemptMs)
        self.maxAttempts = max(1, maxAttempts)
        self.totalMs = max(1, totalMs)
    }

    /// What answered.
    public struct Answer: Sendable {
        /// The reply.
        public var reply: CommandConnection.Reply
        /// The endpoint of the bridge that sent it.
        public var endpoint: String
        /// How many attempts it took (1: the first endpoint answered at once).
        public var attempts: Int
    }

    /// Sends `frame` (a command whose id is `id`) on a ZeroMQ context of its own until a bridge answers.
    ///
    /// - Returns: the answer, or nil when no bridge answered within the limits.
    public func send(_ frame: [UInt8], id: String) throws -> Answer? {
        let context = try Context()
        defer { context.terminate() }
        return try send(frame, id: id, context: context)
    }

    /// Sends `frame` (a command whose id is `id`) on `context` until a bridge answers; nil when none did
    /// within the limits. Blocks the calling thread (keep it off Swift's cooperative pool).
    public func send(_ frame: [UInt8], id: String, context: Context) throws -> Answer? {
        let end = ContinuousClock.now + .milliseconds(totalMs)
        var earlyEndings = 0
        for attempt in 0..<maxAttempts {
            let now = ContinuousClock.now
            guard now < end else { return nil }
            let endpoint = endpoints[attempt % endpoints.count]
            let connection = try FailoverAttempt(context: context, endpoint: endpoint, curve: curve)
            defer { connection.close() }
            let ending = try connection.run(
                frame, id: id, until: min(now + .milliseconds(attemptMs), end),
                mayEndEarly: earlyEndings < endpoints.count - 1)
            switch ending {
            case .answered(let reply): return Answer(reply: reply, endpoint: endpoint, attempts: attempt + 1)
            case .refused, .dropped: earlyEndings += 1
            case .timedOut: earlyEndings = 0
            }
        }
        return nil
    }
}
