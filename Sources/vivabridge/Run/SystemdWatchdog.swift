import Bridge
import Logging

/// Sends `WATCHDOG=1` while the bridge's loop turns, and stops sending when it does not, so that
/// systemd (`WatchdogSec=`) restarts a bridge whose loop hangs rather than one that is merely quiet.
enum SystemdWatchdog {
    /// Runs until cancelled: every half interval, one `WATCHDOG=1` if the loop turned lately.
    static func run(notifier: SystemdNotifier, intervalMs: Int, bridge: Bridge, logger: Logger) async {
        let period = max(intervalMs / 2, 100)
        // The loop turns at least once a second even idle; a period shorter than two seconds must not
        // mistake an idle poll for a hang.
        let allowance = max(period, 2000)
        var silent = false
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: .milliseconds(period))
            } catch {
                return
            }
            if bridge.isResponsive(withinMilliseconds: allowance) {
                notifier.send("WATCHDOG=1")
                silent = false
            } else if !silent {
                silent = true
                logger.error(
                    "the bridge's loop has not turned within the watchdog allowance: the systemd watchdog is no longer fed",
                    metadata: ["allowanceMs": "\(allowance)"])
            }
        }
    }
}
