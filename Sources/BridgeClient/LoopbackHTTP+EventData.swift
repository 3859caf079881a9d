import Foundation

extension LoopbackHTTP {
    /// Reads the `data:` lines of the server-sent event stream this connection is following (after
    /// `get(path, closing: false)` of `/events` or a lane's events), and returns each line's text after
    /// `data: ` (an event's JSON), in order.
    ///
    /// Reads until `done`, given every line so far, says stop, the server closes the connection, or
    /// `timeoutMs` passed; then returns what came by then. `onFirstLine` runs once, when the first line came
    /// (the stream is open: a test can now cause what it waits to see).
    public func readEventData(
        timeoutMs: Int, onFirstLine: () throws -> Void = {}, until done: ([String]) throws -> Bool
    ) rethrows -> [String] {
        var raw: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var lines: [String] = []
        let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
        while Date() < deadline {
            let count = receive(into: &buffer)
            if count == 0 { break }
            if count > 0 {
                let hadLines = !lines.isEmpty
                raw.append(contentsOf: buffer[0..<count])
                // By bytes: "\r\n" of the chunked framing is one Character, which a split on "\n" would not cut.
                lines = raw.split(separator: 10).map { String(decoding: $0, as: UTF8.self) }
                    .filter { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
                if !hadLines, !lines.isEmpty { try onFirstLine() }
            }
            if try done(lines) { break }
        }
        return lines
    }
}
