import InterApp

/// What the bridge knows about one lane: its link, what is in flight on it, and its open batch.
final class LaneState {
    let configuration: LaneConfiguration
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
    /// Orphans journaled in the current second, and when that second started.
    var orphanWindow: (startMs: Int64, admitted: Int, suppressed: Int) = (0, 0, 0)

    init(configuration: LaneConfiguration) { self.configuration = configuration }

    var id: String { configuration.id }
    var platform: Platform { configuration.platform }
}
