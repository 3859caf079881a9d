import InterApp
import ZeroMQ

/// A client's DEALER to the bridge's command socket, as store middleware has it: send a command, read
/// replies. Like any socket it belongs to one thread at a time.
public final class CommandConnection {
    /// The DEALER, for a `Poller` that waits on it with other sockets.
    public let socket: Socket

    /// A reply: its raw bytes (what the bridge sent) and the object they hold.
    public struct Reply: Sendable {
        /// The reply frame as received.
        public var bytes: [UInt8]
        /// The reply, parsed.
        public var object: JSONObject

        /// The reply in `frames` when it answers `id` (or a command refused before its id was read: a reply
        /// with no `id`); nil for anything else. Recorded for the contract check either way.
        init?(frames: [[UInt8]], answering id: String) {
            guard let last = frames.last else { return nil }
            ContractRecorder.reply(last)
            guard let object = try? JSONValue.parse(last).objectValue,
                object["id"]?.stringValue == id || object["id"]?.stringValue == nil
            else { return nil }
            self.init(bytes: last, object: object)
        }

        init(bytes: [UInt8], object: JSONObject) {
            self.bytes = bytes
            self.object = object
        }
    }

    /// Connects to `endpoint`, as a CURVE client when `curve` is given.
    ///
    /// - Parameter immediate: queue commands only to a completed connection (`ZMQ_IMMEDIATE`), so that
    ///   a send with no bridge there fails at once instead of waiting in a queue.
    public init(context: Context, endpoint: String, curve: ClientCurve? = nil, immediate: Bool = false) throws {
        socket = try Socket(context, .dealer)
        try curve?.apply(to: socket)
        if immediate { try socket.setImmediate(true) }
        try socket.connect(endpoint)
    }

    /// Closes the socket.
    public func close() { socket.close() }

    /// Sends one command (a DEALER sends the frame alone; the bridge answers with the same envelope: none).
    /// False when `wait` is false and it could not be queued now.
    @discardableResult
    public func send(_ frame: [UInt8], wait: Bool = true) throws(ZMQError) -> Bool {
        try socket.send([frame], wait: wait)
    }

    /// Sends one command object.
    @discardableResult
    public func send(_ command: JSONObject, wait: Bool = true) throws(ZMQError) -> Bool {
        try send(JSONValue.object(command).serialized(), wait: wait)
    }

    /// The next reply already received, without waiting; frames that are not a JSON object are skipped.
    public func nextReply() throws(ZMQError) -> Reply? {
        while let frames = try socket.receive(wait: false) {
            guard let last = frames.last, let object = try? JSONValue.parse(last).objectValue else { continue }
            ContractRecorder.reply(last)
            return Reply(bytes: last, object: object)
        }
        return nil
    }

    /// Waits up to `waitMs` for the reply to `id` (or to a command refused before its id was read: a
    /// reply with no `id`), skipping any other.
    public func reply(to id: String, waitMs: Int) throws(ZMQError) -> Reply? {
        let deadline = ContinuousClock.now + .milliseconds(waitMs)
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            try socket.setReceiveTimeout(Int32(clamping: left.wholeMilliseconds))
            guard let frames = try socket.receive() else { return nil }
            if let reply = Reply(frames: frames, answering: id) { return reply }
        }
    }

    /// One command and its reply on a connection of its own: what `vivabridge send` does.
    ///
    /// - Returns: the reply, or nil when none came within `waitMs` (no bridge there, or a deadline
    ///   longer than the wait).
    public static func request(
        _ frame: [UInt8], id: String, endpoint: String, curve: ClientCurve? = nil, waitMs: Int
    ) throws -> Reply? {
        let context = try Context()
        defer { context.terminate() }
        let connection = try CommandConnection(context: context, endpoint: endpoint, curve: curve)
        defer { connection.close() }
        try connection.send(frame)
        return try connection.reply(to: id, waitMs: waitMs)
    }
}

extension Duration {
    /// Whole milliseconds, at least 1: a wait that has not yet run out.
    public var wholeMilliseconds: Int {
        max(1, Int(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000))
    }
}
