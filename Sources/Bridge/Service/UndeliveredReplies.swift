import BridgeCore
import BridgeJournal
import Logging

/// The log lines for replies the command socket could not deliver (a caller gone, or one that does not read):
/// the first ``linesPerMinute`` of a minute, then one summary line with how many more there were, so that a
/// local client sending pings and not reading cannot flood the log (it used to write 87,000 lines a second).
/// Every one is counted in `vivabridge_replies_undelivered_total`. Belongs to the loop's thread.
struct UndeliveredReplies {
    /// The lines logged a minute before the rest are only counted.
    static let linesPerMinute = 10
    private var window = RateWindow(limit: linesPerMinute, length: 60_000)

    typealias Reason = UndeliveredReplyReason

    /// Counts a reply (to command `id`) not delivered at `nowMs`, and logs it when the minute has room.
    mutating func record(_ reason: Reason, id: String?, nowMs: Int64, metrics: LoopMetrics, logger: Logger) {
        metrics.replyUndelivered(reason)
        let (logged, heldBack) = window.admit(at: nowMs)
        Self.summarize(heldBack, logger: logger)
        guard logged else { return }
        switch reason {
        case .notReading:
            logger.warning("reply dropped: the caller is not reading", metadata: ["reply": "\(id ?? "-")"])
        case .gone:
            logger.notice("reply not delivered: the caller is gone", metadata: ["reply": "\(id ?? "-")"])
        }
    }

    /// Logs the summary of a minute that ended with replies counted and not logged (each tick).
    mutating func tick(nowMs: Int64, logger: Logger) {
        guard window.suppressed > 0, window.isOver(at: nowMs) else { return }
        Self.summarize(window.takeSuppressed(), logger: logger)
    }

    private static func summarize(_ count: Int, logger: Logger) {
        guard count > 0 else { return }
        logger.warning(
            "replies not delivered past the log's allowance were counted, not logged",
            metadata: [
                "count": "\(count)", "perMinute": "\(linesPerMinute)", "metric": "vivabridge_replies_undelivered_total",
            ])
    }
}
