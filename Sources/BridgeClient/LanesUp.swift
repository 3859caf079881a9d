import Foundation
import InterApp
import ZeroMQ

/// Waiting, as a client, until a bridge's lanes are up: their relays answered the bridge's `hello`. Until then a
/// command for a lane ends `undeliverable`, so a tool or a rig that starts a bridge and its relays waits here
/// before its first command (an in-process bridge has `Bridge.awaitLanesUp(_:timeout:)`).
public enum LanesUp {
    /// Asks the bridge at `endpoint` for its `lanes` answer until each of `lanes` shows `connected`.
    ///
    /// - Returns: whether they all were up within `timeout`.
    public static func wait(
        endpoint: String, lanes: [String], curve: ClientCurve? = nil, timeout: Duration
    ) throws -> Bool {
        let context = try Context()
        defer { context.terminate() }
        let connection = try CommandConnection(context: context, endpoint: endpoint, curve: curve)
        defer { connection.close() }
        let deadline = ContinuousClock.now + timeout
        var attempt = 0
        while ContinuousClock.now < deadline {
            attempt += 1
            let id = "lanes-up-\(attempt)"
            try connection.send(Array(#"{"id":"\#(id)","action":"lanes"}"#.utf8))
            let left = deadline - ContinuousClock.now
            guard let reply = try connection.reply(to: id, waitMs: left.wholeMilliseconds) else { return false }
            if lanes.allSatisfy(up(in: reply.object).contains) { return true }
            // The answer is a poll of the bridge's state: ask again shortly.
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    /// The lanes a `lanes` answer shows connected.
    static func up(in reply: JSONObject) -> Set<String> {
        let listed = reply["result"]?.objectValue?["lanes"]?.arrayValue ?? []
        return Set(
            listed.compactMap(\.objectValue).filter { $0["connected"] == .bool(true) }
                .compactMap { $0["lane"]?.stringValue })
    }
}
