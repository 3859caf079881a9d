import InterApp

/// Where a lane's link stands, as its events move it (issue 10): whether it is up (connected and its relay
/// answered the bridge's `hello`, issue 44), and what a reload asked of it. Each case carries only the data valid in it, and each event is one mutating method that returns what
/// the correlator must do about it (its effects, logs and events stay the correlator's), in the style of
/// swift-nio's state machines. What is in flight on the lane is not part of it: the correlator asks the lane
/// whether it is idle before ``laneIdle()``.
package struct LaneLinkState: Equatable {
    /// Whether the link's handshake is complete and its relay answered the bridge's `hello`.
    package enum Connection: Equatable {
        /// Not connected: the handshake has not completed since the link was made, or the link went down.
        /// Commands are accepted and end `undeliverable`; what is in flight stays in flight.
        case down
        /// The handshake completed and the bridge sent its `hello` at `sinceMs`; the relay has not answered
        /// it (a relay that saw a higher epoch never does, docs/RELAY.md). Commands end `undeliverable`, as
        /// while down: nothing is sent to a relay that may ignore it. `warned` once the bridge logged that
        /// the answer is overdue (``greetingOverdue(nowMs:)``).
        case greeting(sinceMs: Int64, warned: Bool)
        /// The relay answered the bridge's `hello`: commands are sent.
        case up
    }

    /// What a reload asked of the lane.
    package enum Reload: Equatable {
        /// It runs the settings it has and takes every command.
        case steady
        /// A reload asked `change` while something was in flight: the lane takes only aborts until it is
        /// idle, then its link is closed.
        case waiting(LaneChange)
        /// The lane was idle and the loop was asked to close its link (``Effect/closeLink(lane:)``): it takes
        /// no command until the link is closed. `then` is what follows: the change a reload asked, or nil when
        /// a later reload withdrew it (the link is made anew as it was).
        case closing(then: LaneChange?)
    }

    /// What the correlator does after a link event.
    package enum LinkAction: Equatable {
        /// The handshake completed: send the bridge's `hello` (the lane is not up until it is answered).
        case greet
        /// The lane came up or went down: announce it (`lane.connected`, or `lane.disconnected`).
        case announce
        /// The link went down before its relay answered `hello`: it was never announced up, so nothing is
        /// announced either.
        case quiet
        /// The link already was so: nothing to do.
        case ignore
    }

    /// What the correlator does after a reload withdrew a lane's change.
    enum WithdrawAction: Equatable {
        /// The lane stays as it runs: it is no longer tracked as changing.
        case stay
        /// Its link is already closing: it is made anew as it was once closed, so the lane stays tracked.
        case reopenOnceClosed
        /// Nothing was asked of the lane: nothing to do.
        case ignore
    }

    /// What the correlator does once the loop closed the link (``linkClosed()``).
    package struct Closure: Equatable {
        /// Whether the link was up until it closed: `lane.disconnected` is published.
        let wasUp: Bool
        /// What the reload asked: the lane leaves (`remove`), takes new settings (`replace`), or, with nil,
        /// its link is made anew as it was.
        let then: LaneChange?
    }

    /// How long the bridge waits for the relay's answer to its `hello` before it logs a warning.
    static let helloAnswerWarningMs: Int64 = 5000

    /// Whether the link is up.
    private(set) var connection = Connection.down
    /// What a reload asked of the lane.
    private(set) var reload = Reload.steady

    /// Creates the state of a lane whose link was just made: down, running its settings.
    package init() {}

    /// Whether the link is up: connected, and its relay answered `hello`.
    var isUp: Bool { connection == .up }

    /// When the bridge logs that the relay's answer to `hello` is overdue, nil when nothing is to be logged.
    var helloWarningDueMs: Int64? {
        guard case .greeting(let sinceMs, warned: false) = connection else { return nil }
        return sinceMs + Self.helloAnswerWarningMs
    }

    /// The change a reload asked and that is not carried out yet, nil when none.
    var change: LaneChange? {
        switch reload {
        case .steady: nil
        case .waiting(let change): change
        case .closing(let then): then
        }
    }

    /// Whether a reload removed the lane (it stays only until what is in flight on it ends).
    var isRemoved: Bool { change == .remove }

    /// Whether the lane takes a new command of `action`, as far as its reload goes: every command while
    /// steady, only an abort while a change waits for the lane to be idle, none while its link closes.
    func takes(_ action: TerminalAction) -> Bool {
        switch reload {
        case .steady: true
        case .waiting: action == .abort
        case .closing: false
        }
    }

    /// Whether the bridge may start its own look-up on the lane: the link is up and no reload is pending.
    var mayStartLookup: Bool { connection == .up && reload == .steady }

    // MARK: Events

    /// The link's handshake completed at `nowMs`: the bridge says `hello` and waits for the answer.
    mutating func linkUp(atMs nowMs: Int64) -> LinkAction {
        guard connection == .down else { return .ignore }
        connection = .greeting(sinceMs: nowMs, warned: false)
        return .greet
    }

    /// The relay answered the bridge's `hello`: the lane is up. A `hello` while down (read after the link
    /// dropped) or already up changes nothing.
    mutating func helloAnswered() -> LinkAction {
        guard case .greeting = connection else { return .ignore }
        connection = .up
        return .announce
    }

    /// Whether the relay's answer to `hello` is overdue at `nowMs` and not yet warned of: true once a
    /// greeting (the correlator logs it), false after.
    mutating func greetingOverdue(nowMs: Int64) -> Bool {
        guard let due = helloWarningDueMs, due <= nowMs, case .greeting(let sinceMs, _) = connection else {
            return false
        }
        connection = .greeting(sinceMs: sinceMs, warned: true)
        return true
    }

    /// A cloud lane's link, which is Viva's cloud itself: up once opened and while the last call to Viva was
    /// answered, down while it was not. There is no `hello`: Viva answers for every terminal.
    mutating func cloudReachable(_ reachable: Bool) -> LinkAction {
        switch (connection, reachable) {
        case (.up, true), (.down, false): return .ignore
        case (_, true):
            connection = .up
            return .announce
        case (.up, false):
            connection = .down
            return .announce
        case (.greeting, false):
            connection = .down
            return .quiet
        }
    }

    /// The link went down (ZeroMQ reported it disconnected). What is in flight is not the link's: it stays.
    mutating func linkDown() -> LinkAction {
        switch connection {
        case .down:
            return .ignore
        case .greeting:
            connection = .down
            return .quiet
        case .up:
            connection = .down
            return .announce
        }
    }

    /// A reload asked `change` of the lane: it waits for the lane to be idle, or, when the link already
    /// closes, follows its closing.
    mutating func reloadAsked(_ change: LaneChange) {
        switch reload {
        case .steady, .waiting: reload = .waiting(change)
        case .closing: reload = .closing(then: change)
        }
    }

    /// A reload brought the lane back to the settings it runs before its change was carried out.
    mutating func reloadWithdrawn() -> WithdrawAction {
        switch reload {
        case .steady, .closing(then: nil):
            return .ignore
        case .waiting:
            reload = .steady
            return .stay
        case .closing:
            reload = .closing(then: nil)
            return .reopenOnceClosed
        }
    }

    /// The lane is idle (nothing in flight on it): a waiting change closes its link. Returns whether the
    /// loop must be asked to close it.
    mutating func laneIdle() -> Bool {
        guard case .waiting(let change) = reload else { return false }
        reload = .closing(then: change)
        return true
    }

    /// The loop closed the link: the lane is down and steady, and the closure says what follows.
    mutating func linkClosed() -> Closure {
        let closure = Closure(wasUp: connection == .up, then: change)
        connection = .down
        reload = .steady
        return closure
    }
}
