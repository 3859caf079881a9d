import Bridge
import Logging

/// What a SIGHUP does to a running bridge (docs/OPERATIONS.md, "Reloading"): the file is read and
/// checked again; a file with any problem changes nothing; a good file's log level and client allow-list
/// apply at once; every other difference from the running configuration is named, and waits for a restart.
struct ConfigurationReload: Sendable {
    /// The running bridge, whose allow-list a reload replaces.
    let bridge: Bridge
    /// The file the bridge started from; nil on the embedded default.
    let file: String?
    /// The configuration the bridge runs on.
    let running: BridgeConfiguration
    /// Whether `--log-level` set the level (it then wins over the file, as at start).
    let levelFromFlag: Bool

    /// Reloads and logs what happened; returns the status line for systemd.
    func perform(environment: [String: String], logger: Logger) -> String {
        guard let file else {
            logger.notice("SIGHUP received: the embedded default has no file to reload; nothing changed")
            return "running (the embedded default has no file to reload)"
        }
        let (candidate, problems) = BridgeConfiguration.check(file: file, environment: environment)
        guard problems.all.isEmpty else {
            let listed = problems.all.map(\.description).joined(separator: "; ")
            logger.error(
                "SIGHUP: \(file) refused, the running configuration is unchanged: \(problems.all.count) problem(s): \(listed)"
            )
            return "running; the last reload was refused (see the log)"
        }
        applyLogLevel(candidate.log.level, logger: logger)
        applyAllowList(candidate.security, logger: logger)
        let waiting = running.restartDifferences(to: candidate)
        if waiting.isEmpty {
            logger.notice("SIGHUP: \(file) reloaded")
        } else {
            logger.notice(
                "SIGHUP: \(file) reloaded; these changes take effect at the next restart: \(waiting.joined(separator: "; "))"
            )
        }
        return "running; configuration reloaded"
    }

    /// A changed client list under the same bridge key applies at once: a removed client is refused from
    /// its next connection on. Adding or removing `security`, or another key, waits for a restart.
    private func applyAllowList(_ security: SecuritySettings?, logger: Logger) {
        guard let old = running.security, let new = security, old.secretKey == new.secretKey else { return }
        bridge.replaceClients(new.clients)
        if old.clients != new.clients {
            let names = Set(new.clients.map(\.name)).sorted().joined(separator: ", ")
            logger.notice("SIGHUP: the allow-list now holds \(new.clients.count) key(s): \(names)")
        }
    }

    private func applyLogLevel(_ name: String, logger: Logger) {
        guard let level = Logger.Level(rawValue: name), level != LogSetup.threshold.level else { return }
        if levelFromFlag {
            logger.notice("SIGHUP: log.level \(name) in the file ignored: --log-level set the level")
            return
        }
        LogSetup.threshold.level = level
        logger.notice("SIGHUP: log level now \(name)")
    }
}
