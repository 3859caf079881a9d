import Bridge
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// What the running bridge does with signals (docs/OPERATIONS.md, "Signals and exit codes"):
/// - SIGTERM or SIGINT: a graceful shutdown (commands in flight get `shutdownGraceMs`), exit 0;
/// - a second SIGTERM or SIGINT during it: stop at once, exit 1 (what is in flight stays in the journal
///   and is picked up by the next start, as after a crash);
/// - SIGHUP: never ends the process; `onReload` runs (``ConfigurationReload``).
/// systemd hears of each (``SystemdNotifier``): `STOPPING=1`, and `RELOADING=1` then `READY=1`.
enum ProcessSignals {
    /// Traps the signals now, before anything starts: a signal that arrives before ``handle`` listens
    /// is kept for it instead of ending the process.
    static func trap() async -> UnixSignalsSequence {
        await UnixSignalsSequence(trapping: .sigterm, .sigint, .sighup)
    }

    /// Listens on `signals` until cancelled. `onReload` returns the status line systemd shows afterwards.
    static func handle(
        _ signals: UnixSignalsSequence, group: ServiceGroup, logger: Logger, notifier: SystemdNotifier,
        onReload: @escaping @Sendable () -> String
    ) async {
        var stopping = false
        for await signal in signals {
            if signal == .sighup {
                notifier.reloading()
                // Off the cooperative pool: a reload reads files (the configuration, keys, the password file).
                let status = await OffPool.run(onReload)
                notifier.ready(status)
                continue
            }
            if stopping {
                logger.warning(
                    "second signal during the graceful shutdown: stopping at once; commands in flight stay in the journal",
                    metadata: ["signal": "\(signal)"])
                exit(1)
            }
            stopping = true
            notifier.stopping("shutting down gracefully after \(signal)")
            logger.notice(
                "signal received: shutting down gracefully (send it again to stop at once)",
                metadata: ["signal": "\(signal)"])
            await group.triggerGracefulShutdown()
        }
    }
}
