import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// What the running bridge does with signals (docs/OPERATIONS.md, "Signals and exit codes"):
/// - SIGTERM or SIGINT: a graceful shutdown (commands in flight get `shutdownGraceMs`), exit 0;
/// - a second SIGTERM or SIGINT during it: stop at once, exit 1 (what is in flight stays in the journal
///   and is picked up by the next start, as after a crash);
/// - SIGHUP: never ends the process; `onReload` runs (today it says reload is not available yet).
enum ProcessSignals {
    /// Listens until cancelled.
    static func handle(group: ServiceGroup, logger: Logger, onReload: @Sendable () -> Void) async {
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint, .sighup)
        var stopping = false
        for await signal in signals {
            if signal == .sighup {
                onReload()
                continue
            }
            if stopping {
                logger.warning(
                    "second \(signal) during the graceful shutdown: stopping at once; commands in flight stay in the journal"
                )
                exit(1)
            }
            stopping = true
            logger.notice("\(signal) received: shutting down gracefully (send it again to stop at once)")
            await group.triggerGracefulShutdown()
        }
    }
}
