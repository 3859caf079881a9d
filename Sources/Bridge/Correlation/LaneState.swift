import InterApp

/// What the bridge knows about one lane: its link, what is in flight on it, and its open batch.
final class LaneState {
    /// The settings in effect; a reload's new ones wait in ``change`` until the lane is idle.
    var configuration: LaneConfiguration
    /// What a reload asked of this lane and waits for it to be idle; nil when nothing does.
    var change: LaneChange?
    /// Set once the loop was asked to close the link for ``change``: the lane takes no new command.
    var closing = false
    var connected = false
    /// What the relay said of itself in its `hello`.
    var relayHello: JSONObject?
    /// The one transaction in flight (sale, cancel, batch or transactionDetails), or the bridge's look-up.
    var current: CommandRecord?
    /// Aborts sent and not yet answered, oldest first.
    var aborts: [CommandRecord] = []
    /// Sales an abort stopped, waiting out the grace period.
    var graceSales: [GraceSale] = []
    /// `unknown` sales to look up with `transactionDetails` once the lane is idle (Android).
    var pendingLookups: [(saleId: String, clientTransactionId: String)] = []
    var openBatch: OpenBatch?
    var lastCallbackMs: Int64?
    /// The last command of this lane that became final, as the `lanes` answer's `lastResult` shows it.
    var lastResult: JSONObject?
    /// What the relay sent that the bridge refused to act on.
    var faults = LaneFaults()
    /// The lane's recent successful pre-authorisations (v1.1), newest last, at most
    /// ``Correlator/maxRememberedAuthorisations``: how a capture's answer is linked to the `pre_auth` it took.
    var authorisations: [Authorisation] = []
    /// Orphans journaled in the current second, and when that second started.
    var orphanWindow: (startMs: Int64, admitted: Int, suppressed: Int) = (0, 0, 0)

    init(configuration: LaneConfiguration) { self.configuration = configuration }

    var id: String { configuration.id }
    var platform: Platform { configuration.platform }
    /// Whether a reload removed the lane (it stays only until what is in flight on it ends).
    var isRemoved: Bool { change == .remove }
    /// Whether nothing is in flight on the lane: no transaction, no abort, no sale in its abort grace.
    var isIdle: Bool { current == nil && aborts.isEmpty && graceSales.isEmpty }
}

/// What a reload asked of a lane that had something in flight.
enum LaneChange: Equatable {
    /// The lane left the configuration: its link closes once the lane is idle.
    case remove
    /// The lane's settings changed: its link is made anew with these once the lane is idle.
    case replace(LaneConfiguration)
}
