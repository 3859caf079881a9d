/// Where a command in memory is on its way to the terminal app, and so whether the app may have it open,
/// in the style of swift-nio's state machines: each event is one mutating method that says whether it
/// moved the command. The journal and `status` see it as a ``RecordState`` (``state``).
package enum CommandProgress: Equatable {
    /// Journaled (or, for the bridge's look-up, made), not yet handed to the lane's link.
    case accepted
    /// Its URL was handed to the lane's link; the relay has not said it opened it.
    case forwarded
    /// Picked up again after a restart: it was forwarded, and whether the app opened it before the restart
    /// is not known, so it may be open.
    case restored
    /// The relay said the terminal app opened it.
    case delivered

    /// The state the journal, `status` and the `lanes` answer show: a restored command shows `forwarded`.
    var state: RecordState {
        switch self {
        case .accepted: .accepted
        case .forwarded, .restored: .forwarded
        case .delivered: .delivered
        }
    }

    /// Whether the terminal app may have the command open (the relay said `opened`, or it was restored),
    /// so it can no longer become `undeliverable`: only its callback or its deadline ends it.
    var mayHaveOpened: Bool {
        switch self {
        case .accepted, .forwarded: false
        case .restored, .delivered: true
        }
    }

    /// The loop handed the command's URL to the lane's link. Returns whether it moved (only an accepted
    /// command does).
    mutating func sent() -> Bool {
        guard self == .accepted else { return false }
        self = .forwarded
        return true
    }

    /// The relay said `opened`. Returns whether it moved (not when already delivered).
    mutating func opened() -> Bool {
        guard self != .delivered else { return false }
        self = .delivered
        return true
    }
}
