import Bridge
import Foundation
import Logging

/// What a SIGHUP does to a running bridge (docs/OPERATIONS.md, "Reloading"): the file is read and
/// checked again; a file with any problem changes nothing; a good file's log level, client allow-list
/// and lanes (added, removed, changed) apply at once; every other difference from the running
/// configuration is named, and waits for a restart.
final class ConfigurationReload: @unchecked Sendable {
    /// The running bridge, whose allow-list and lanes a reload replaces.
    let bridge: Bridge
    /// The file the bridge started from; nil on the embedded default.
    let file: String?
    /// Whether `--log-level` set the level (it then wins over the file, as at start).
    let levelFromFlag: Bool
    /// The configuration the bridge runs on: the start's, with what reloads applied since.
    private var running: BridgeConfiguration
    /// Held for a whole reload: two signals never reload at once.
    private let lock = NSLock()

    init(bridge: Bridge, file: String?, running: BridgeConfiguration, levelFromFlag: Bool) {
        self.bridge = bridge
        self.file = file
        self.running = running
        self.levelFromFlag = levelFromFlag
    }

    /// Reloads and logs what happened; returns the status line for systemd.
    func perform(environment: [String: String], logger: Logger) -> String {
        lock.lock()
        defer { lock.unlock() }
        guard let file else {
            logger.notice("SIGHUP received: the embedded default has no file to reload; nothing changed")
            return "running (the embedded default has no file to reload)"
        }
        let (candidate, problems) = BridgeConfiguration.check(file: file, environment: environment)
        guard problems.all.isEmpty else {
            let listed = problems.all.map(\.description).joined(separator: "; ")
            logger.error(
                "SIGHUP: configuration file refused, the running configuration is unchanged",
                metadata: ["file": "\(file)", "count": "\(problems.all.count)", "problems": "\(listed)"])
            return "running; the last reload was refused (see the log)"
        }
        applyLogLevel(candidate.log.level, logger: logger)
        applyAllowList(candidate.security, logger: logger)
        var waiting = applyLanes(candidate, logger: logger)
        waiting += running.restartDifferences(to: candidate)
        if waiting.isEmpty {
            logger.notice("SIGHUP: configuration file reloaded", metadata: ["file": "\(file)"])
        } else {
            logger.notice(
                "SIGHUP: configuration file reloaded; some changes take effect at the next restart",
                metadata: ["file": "\(file)", "atRestart": "\(waiting.joined(separator: "; "))"])
        }
        return "running; configuration reloaded"
    }

    /// Lanes added, removed or changed go to the bridge's loop, which logs each as it applies it. Under a
    /// new bridge key (or `security` added or removed) they wait for the restart with it; returns what waits.
    private func applyLanes(_ candidate: BridgeConfiguration, logger: Logger) -> [String] {
        let differences = running.laneDifferences(to: candidate)
        guard !differences.isEmpty else { return [] }
        guard running.canReloadLanes(to: candidate) else { return differences.phrases }
        logger.notice(
            "SIGHUP: applying the lane changes now",
            metadata: ["changes": "\(differences.phrases.joined(separator: "; "))"])
        bridge.reloadLanes(candidate.lanes)
        running.lanes = candidate.lanes
        running.terminal = candidate.terminal
        return []
    }

    /// A changed client list under the same bridge key applies at once: a removed client is refused from
    /// its next connection on. Adding or removing `security`, or another key, waits for a restart.
    private func applyAllowList(_ security: SecuritySettings?, logger: Logger) {
        guard let old = running.security, let new = security, old.secretKey == new.secretKey else { return }
        bridge.replaceClients(new.clients)
        running.security?.clients = new.clients
        if old.clients != new.clients {
            let names = Set(new.clients.map(\.name)).sorted().joined(separator: ", ")
            logger.notice(
                "SIGHUP: the allow-list changed", metadata: ["count": "\(new.clients.count)", "clients": "\(names)"])
        }
    }

    private func applyLogLevel(_ name: String, logger: Logger) {
        guard let level = Logger.Level(rawValue: name), level != LogSetup.threshold.level else { return }
        if levelFromFlag {
            logger.notice(
                "SIGHUP: log.level in the file ignored: --log-level set the level", metadata: ["level": "\(name)"])
            return
        }
        LogSetup.threshold.level = level
        running.log.level = name
        logger.notice("SIGHUP: log level changed", metadata: ["level": "\(name)"])
    }
}
