/// Everything in flight on one lane: its ``LaneActivity``, the aborts sent and not yet answered, and the
/// sales an abort stopped while they wait out the grace period. Aborts and grace sales stand beside any
/// activity: an abort may be sent to an idle lane (the terminal answers that there is nothing to abort) or
/// during a look-up, and a new transaction may start while an aborted sale waits out its grace.
///
/// A command enters through ``start(_:)`` or ``addAbort(_:)`` and leaves through ``end(_:)``, whatever ended
/// it; the correlator keeps the command store beside it (``Correlator/release(_:)``).
package struct LaneInFlight {
    /// The lane's one transaction, or the bridge's look-up, or nothing.
    private(set) var activity = LaneActivity.idle
    /// Aborts sent and not yet answered, oldest first (and a transaction restored beside another one,
    /// waiting for its deadline).
    private(set) var aborts: [CommandRecord] = []
    /// Sales an abort stopped, waiting out the grace period, oldest first.
    private(set) var graceSales: [GraceSale] = []

    /// Whether nothing is in flight: no transaction or look-up, no abort, no sale in its abort grace.
    var isIdle: Bool { activity.isIdle && aborts.isEmpty && graceSales.isEmpty }

    /// Every command in flight, the slot's first, then the aborts, then the sales in grace.
    var records: [CommandRecord] { [activity.record].compactMap { $0 } + aborts + graceSales.map(\.sale) }

    /// Puts `record` (a transaction or the bridge's look-up) in the lane's slot, which must be idle.
    mutating func start(_ record: CommandRecord) {
        assert(activity.isIdle, "lane \(record.lane) already has \(activity.record?.id ?? "-") in flight")
        activity = LaneActivity(record)
    }

    /// Adds an abort sent to the lane (answered oldest first).
    mutating func addAbort(_ record: CommandRecord) { aborts.append(record) }

    /// `record` is no longer in flight on the lane: it leaves the slot or the aborts (nothing when it was
    /// in neither, as a sale already moved to its grace).
    mutating func end(_ record: CommandRecord) {
        if activity.record === record { activity = .idle }
        aborts.removeAll { $0 === record }
    }

    /// The oldest abort was answered `aborted` while `grace.sale` ran: both leave the slot and the aborts,
    /// and the sale waits out its grace when `keep` says so (a grace period of 0 ends it at once).
    mutating func stop(for grace: GraceSale, keep: Bool) {
        end(grace.sale)
        end(grace.abort)
        if keep { graceSales.append(grace) }
    }

    /// Takes the sale in grace at `index` out (its own callback came).
    mutating func takeGraceSale(at index: Int) -> GraceSale { graceSales.remove(at: index) }

    /// Takes out the sales whose grace ended by `nowMs`, oldest first.
    mutating func takeGraceSales(endedBy nowMs: Int64) -> [GraceSale] {
        guard !graceSales.isEmpty else { return [] }
        let due = graceSales.filter { $0.untilMs <= nowMs }
        graceSales.removeAll { $0.untilMs <= nowMs }
        return due
    }
}
