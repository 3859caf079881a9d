import Foundation
import InterApp
import ZeroMQ

/// One request and its reply over a DEALER socket, the way any client of the bridge does it.
enum SendClient {
    /// A reply: its raw bytes (for `--json`) and the object they hold.
    struct Reply {
        var bytes: [UInt8]
        var object: JSONObject
    }

    /// Sends `frame` (the command `id`) to the bridge at `endpoint` (with CURVE when `curve`) and waits up to `waitMs` for its reply.
    ///
    /// - Returns: the reply, or nil when none came in time (no bridge there, or a deadline longer than the wait).
    static func request(_ frame: [UInt8], id: String, endpoint: String, curve: ClientCurve?, waitMs: Int) throws
        -> Reply?
    {
        let context = try Context()
        defer { context.terminate() }
        let socket = try Socket(context, .dealer)
        defer { socket.close() }
        try curve?.apply(to: socket)
        try socket.connect(endpoint)
        // A DEALER sends the frame alone; the bridge answers with the same envelope (none).
        try socket.send([frame])
        let deadline = ContinuousClock.now + .milliseconds(waitMs)
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            let ms = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
            try socket.setReceiveTimeout(Int32(clamping: max(1, ms)))
            guard let frames = try socket.receive(), let last = frames.last else { return nil }
            // This socket carries one command: its reply names it, or names no id when the id itself was refused.
            if let object = try? JSONValue.parse(last).objectValue,
                object["id"]?.stringValue == id || object["id"]?.stringValue == nil
            {
                return Reply(bytes: last, object: object)
            }
        }
    }
}
