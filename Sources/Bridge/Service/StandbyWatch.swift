import BridgeCore
import BridgeJournal

/// What a standby says of its polls of the journal's lease, in swift-nio's style: each poll's answer is an event,
/// the log lines it calls for are the actions; no I/O, no clock.
///
/// A standby names the holder once, and again when another bridge holds the lease; a database that cannot be
/// reached is said once, and again when it answers.
struct StandbyWatch: Equatable {
    /// What the standby said last.
    enum State: Equatable {
        /// Nothing yet: the next answer names the holder.
        case unannounced
        /// The holder it named (nil: none was running).
        case announced(holder: String?)
        /// The database did not answer; `before` is what had been said.
        indirect case unreachable(before: State)
    }

    /// A line to log.
    enum Action: Equatable {
        /// The database answers again.
        case databaseAnswers
        /// Another bridge holds the lease: `holder` at `epoch` (nil when none is running).
        case standby(holder: String?, epoch: Int?)
    }

    private(set) var state: State

    /// A watch that names the holder at its first answer when `announce`, else only when the holder changes.
    init(announce: Bool) {
        state = announce ? .unannounced : .announced(holder: nil)
    }

    /// The database answered: the lease is `holder`'s (nil: nobody's, though this poll did not take it).
    mutating func answered(holder: LeaseHolder?) -> [Action] {
        var actions: [Action] = []
        var said = state
        if case .unreachable(let before) = state {
            actions.append(.databaseAnswers)
            said = before
        }
        switch said {
        case .announced(let named) where named == holder?.instance:
            state = said
        case .unannounced, .announced, .unreachable:
            state = .announced(holder: holder?.instance)
            actions.append(.standby(holder: holder?.instance, epoch: holder?.epoch))
        }
        return actions
    }

    /// The database could not be asked: true when that is to be said (the first time since it answered).
    mutating func failed() -> Bool {
        if case .unreachable = state { return false }
        state = .unreachable(before: state)
        return true
    }
}
