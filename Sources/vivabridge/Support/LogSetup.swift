import ArgumentParser
import Bridge
import Logging

/// The executable's logging set-up: swift-log is bootstrapped once, here, never in a library.
enum LogSetup {
    /// The level every logger of the process logs at; a SIGHUP reload changes it.
    static let threshold = LogThreshold(.info)

    /// Bootstraps swift-log for the process (standard error, `format`, millisecond timestamps) and
    /// returns the root logger.
    static func bootstrap(level: Logger.Level, format: LogSettings.Format = .text) -> Logger {
        threshold.level = level
        LoggingSystem.bootstrap { label in
            LineLogHandler(label: label, format: format, threshold: threshold)
        }
        return Logger(label: "vivabridge")
    }
}

/// A `--log-level` option value: one of swift-log's levels by name.
struct LogLevel: ExpressibleByArgument {
    /// The level named.
    let level: Logger.Level

    init(_ level: Logger.Level) { self.level = level }

    init?(argument: String) {
        guard let level = Logger.Level(rawValue: argument) else { return nil }
        self.level = level
    }

    /// The names accepted, for help texts.
    static var allValueStrings: [String] { Logger.Level.allCases.map(\.rawValue) }
    var defaultValueDescription: String { level.rawValue }
}

/// A `--log-format` option value: `text` or `json`.
extension LogSettings.Format: ExpressibleByArgument {}
