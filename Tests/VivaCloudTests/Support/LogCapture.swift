import Logging
import Synchronization

/// Keeps every log line (message and metadata, as text) written through its logger, at every level.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    /// A logger writing here.
    var logger: Logger {
        var logger = Logger(label: "viva-cloud-tests") { _ in Handler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    /// Every line so far.
    var all: [String] { lines.withLock { $0 } }

    fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.append("\(event.level) \(event.message) \(merged) \(event.source)")
        }
    }
}
