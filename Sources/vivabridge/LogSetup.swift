import Logging

/// The executable's logging set-up: swift-log is bootstrapped once, here, never in a library.
enum LogSetup {
    /// Bootstraps swift-log for the process (standard error) and returns the root logger.
    static func bootstrap(level: Logger.Level) -> Logger {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: "vivabridge")
        logger.logLevel = level
        return logger
    }
}
