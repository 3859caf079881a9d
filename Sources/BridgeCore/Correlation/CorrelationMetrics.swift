import InterApp

/// What the correlator counts as it decides, for `/metrics`: the service's loop gives an implementation that
/// keeps Prometheus's counters (`LoopMetrics`); the core names no metrics library.
package protocol CorrelationMetrics: AnyObject {
    /// Counts `times` commands answered with `outcome`, and how long since they were received (nil: a
    /// command restored after a restart, counted and not timed).
    func command(action: String?, outcome: Outcome, code: RejectionCode?, elapsedMs: Int64?, times: Int)
    /// Counts one callback from a relay.
    func callback(_ kind: CallbackKind)
    /// Counts one look-up in Viva's records by its result (`VivaVerdict.label`, or `error`).
    func cloudLookup(result: String)
}

extension CorrelationMetrics {
    /// Counts one command answered with `outcome`.
    func command(action: String?, outcome: Outcome, code: RejectionCode? = nil, elapsedMs: Int64?) {
        command(action: action, outcome: outcome, code: code, elapsedMs: elapsedMs, times: 1)
    }
}

/// What a callback from a relay turned out to be (`vivabridge_callbacks_total{kind}`).
package enum CallbackKind: String, CaseIterable, Sendable {
    case matched, late, orphan, unparsable
}
