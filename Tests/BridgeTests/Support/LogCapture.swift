import Foundation
import Logging

/// Collects every log line a bridge writes, to check that none holds a secret, or to wait for one.
final class LogCapture: @unchecked Sendable {
    private let lock = NSCondition()
    private var lines: [String] = []

    func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.broadcast()
        lock.unlock()
    }

    /// Waits up to `timeout` seconds for a line containing `text`; returns it.
    func waitForLine(containing text: String, timeout: TimeInterval = 10) -> String? {
        waitForLine(containingAll: [text], timeout: timeout)
    }

    /// Waits up to `timeout` seconds for a line containing every one of `texts` (a log message and its
    /// metadata, printed `"key": value`); returns it.
    func waitForLine(containingAll texts: [String], timeout: TimeInterval = 10) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        let matches: (String) -> Bool = { line in texts.allSatisfy { line.contains($0) } }
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let line = lines.first(where: matches) { return line }
            if !lock.wait(until: deadline) { return lines.first(where: matches) }
        }
    }

    /// Whether a line logged so far contains every one of `texts`.
    func hasLine(containingAll texts: [String]) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return lines.contains { line in texts.allSatisfy { line.contains($0) } }
    }

    /// Everything logged so far, one line each.
    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return lines.joined(separator: "\n")
    }

    func handler() -> any LogHandler { CapturingHandler(capture: self) }

    private struct CapturingHandler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.append("\(event.level) \(event.message) \(merged)")
        }
    }
}
