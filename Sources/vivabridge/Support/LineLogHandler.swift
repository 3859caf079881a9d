import Bridge
import Foundation
import Logging
import Synchronization

/// The bridge's log lines on standard error: text or JSON, timestamps to the millisecond in UTC.
///
/// Everything a peer sends reaches a log line only through the bridge's own escaping, so a line is
/// always one line; JSON lines are escaped by the serializer.
struct LineLogHandler: LogHandler {
    let label: String
    let format: LogSettings.Format
    /// Shared by every logger of the process, so a reload changes them all at once.
    let threshold: LogThreshold
    var metadata: Logger.Metadata = [:]
    /// A level set on this logger (`logger.logLevel = …`): this logger's alone, and only ever quieter
    /// than the process's (the HTTP listener quietens Hummingbird's logger this way).
    private var ownLevel: Logger.Level?

    init(label: String, format: LogSettings.Format, threshold: LogThreshold) {
        self.label = label
        self.format = format
        self.threshold = threshold
    }

    /// The process's level (`--log-level`, `log.level`, a reload), or this logger's own when it is
    /// quieter. Setting it sets this logger's own: it never changes another logger's (v1.1 set the
    /// process's, so the HTTP listener silenced every info and notice line).
    var logLevel: Logger.Level {
        get { max(ownLevel ?? threshold.level, threshold.level) }
        set { ownLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let time = Self.timestamp()
        let line: String
        switch format {
        case .text:
            let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            line = "\(time) \(event.level) \(label): \(event.message)\(fields.isEmpty ? "" : " " + fields)\n"
        case .json:
            var object: [String: Any] = [
                "time": time, "level": event.level.rawValue, "label": label, "message": "\(event.message)",
            ]
            if !merged.isEmpty { object["metadata"] = merged.mapValues { "\($0)" } }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            line = String(decoding: data, as: UTF8.self) + "\n"
        }
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// `2026-11-24T07:40:01.123Z`.
    static func timestamp(_ date: Date = Date()) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        let milliseconds = Int((date.timeIntervalSince1970 - Double(seconds)) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), milliseconds)
    }
}

/// The process's log level, shared by every ``LineLogHandler`` and changed by a SIGHUP reload; read
/// without a lock on every log call.
final class LogThreshold: Sendable {
    private let index: Atomic<Int>

    init(_ level: Logger.Level) { index = Atomic(Self.levels.firstIndex(of: level) ?? 2) }

    private static let levels = Logger.Level.allCases

    /// The lowest level that reaches the log.
    var level: Logger.Level {
        get { Self.levels[index.load(ordering: .relaxed)] }
        set { index.store(Self.levels.firstIndex(of: newValue) ?? 2, ordering: .relaxed) }
    }
}
