import InterApp

/// Where a lane's link stands, as its events move it (issue 10): whether it is up, and what a reload asked of
/// it. Each case carries only the data valid in it, and each event is one mutating method that returns what
/// the correlator must do about it (its effects, logs and events stay the correlator's), in the style of
/// swift-nio's state machines. What is in flight on the lane is not part of it: the correlator asks the lane
/// whether it is idle before ``laneIdle()``.
struct LaneLinkState: Equatable {
    /// Whether the link's handshake is complete.
    enum Connection: Equatable {
        /// Not connected: the handshake has not completed since the link was made, or the link went down.
        /// Commands are accepted and end `undeliverable`; what is in flight stays in flight.
        case down
        /// The handshake completed and the bridge said hello: commands are sent.
        case up
    }

    /// What a reload asked of the lane.
    enum Reload: Equatable {
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
    enum LinkAction: Equatable {
        /// The link changed: announce it (the bridge's hello and `lane.connected`, or `lane.disconnected`).
        case announce
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
    struct Closure: Equatable {
        /// Whether the link was up until it closed: `lane.disconnected` is published.
        let wasUp: Bool
        /// What the reload asked: the lane leaves (`remove`), takes new settings (`replace`), or, with nil,
        /// its link is made anew as it was.
        let then: LaneChange?
    }

    /// Whether the link is up.
    private(set) var connection = Connection.down
    /// What a reload asked of the lane.
    private(set) var reload = Reload.steady

    /// Creates the state of a lane whose link was just made: down, running its settings.
    init() {}

    /// Whether the link is up.
    var isUp: Bool { connection == .up }

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

    /// The link's handshake completed.
    mutating func linkUp() -> LinkAction {
        guard connection == .down else { return .ignore }
        connection = .up
        return .announce
    }

    /// The link went down (ZeroMQ reported it disconnected). What is in flight is not the link's: it stays.
    mutating func linkDown() -> LinkAction {
        guard connection == .up else { return .ignore }
        connection = .down
        return .announce
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
