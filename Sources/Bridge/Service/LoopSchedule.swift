import BridgeCore
import BridgeJournal

/// When the loop next has something of its own to do, beside the sockets: the tick, the heartbeat
/// event, what the correlator has due, and `bridge.role.active`.
struct LoopSchedule {
    /// When the last tick ran (0: the next turn ticks).
    private var lastTickMs: Int64 = 0
    private var lastHeartbeatMs: Int64 = 0
    /// When the correlator next has something due, as of the end of the last turn.
    private var nextDueMs: Int64?
    /// When `bridge.role.active` is due (a PostgreSQL journal's lease holder), nil once published: a second
    /// after the loop starts, so that subscribers waiting for this bridge's endpoint (ZeroMQ connects again
    /// every 100 ms) are on when it goes.
    private var roleActiveDueMs: Int64?

    /// Ticks on the next turn (a `wake` on the control channel).
    mutating func tickNow() { lastTickMs = 0 }

    /// Whether this turn ticks: a tick is `tickMs` old, or something the correlator has is due; if so,
    /// it counts as the last tick.
    mutating func takeTick(nowMs: Int64, tickMs: Int64) -> Bool {
        guard nowMs - lastTickMs >= tickMs || (nextDueMs.map { $0 <= nowMs } ?? false) else { return false }
        lastTickMs = nowMs
        return true
    }

    /// Whether the heartbeat event is due (every `everyMs`); if so, it counts as sent.
    mutating func takeHeartbeat(nowMs: Int64, everyMs: Int64) -> Bool {
        guard nowMs - lastHeartbeatMs >= everyMs else { return false }
        lastHeartbeatMs = nowMs
        return true
    }

    /// Announces the role `afterMs` from `nowMs`.
    mutating func announceRole(nowMs: Int64, afterMs: Int64) { roleActiveDueMs = nowMs + afterMs }

    /// Whether `bridge.role.active` is due; if so, it counts as published.
    mutating func takeRoleAnnouncement(nowMs: Int64) -> Bool {
        guard let due = roleActiveDueMs, nowMs >= due else { return false }
        roleActiveDueMs = nil
        return true
    }

    /// What the correlator next has due, at the end of a turn.
    mutating func correlatorDue(_ dueMs: Int64?) { nextDueMs = dueMs }

    /// How long a poll may wait: until the next tick, what the correlator has due, or the role's announcement.
    func waitMs(nowMs: Int64, tickMs: Int64) -> Int64 {
        var wait = max(0, lastTickMs + tickMs - nowMs)
        for due in [nextDueMs, roleActiveDueMs].compactMap({ $0 }) { wait = min(wait, max(0, due - nowMs)) }
        return wait
    }
}
