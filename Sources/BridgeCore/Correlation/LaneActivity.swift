/// What a lane's one transaction slot holds, in the style of swift-nio's state machines: each case carries
/// only its data. A lane runs one transaction at a time (sale, cancel, batch, transactionDetails, …) or the
/// bridge's own look-up of an `unknown` sale; aborts and sales in their abort grace stand beside it in
/// ``LaneInFlight``.
enum LaneActivity {
    /// Nothing in the slot: a new transaction, or a look-up, may start.
    case idle
    /// A client's transaction, waiting for its callback or its deadline.
    case transaction(CommandRecord)
    /// The bridge's own `transactionDetails` look-up of the `unknown` sale `saleId` (never journaled).
    case recoveryLookup(CommandRecord, saleId: String)

    /// The slot's activity for `record`: a look-up when its purpose says so, a transaction otherwise.
    package init(_ record: CommandRecord) {
        switch record.purpose {
        case .client: self = .transaction(record)
        case .recoveryLookup(let saleId): self = .recoveryLookup(record, saleId: saleId)
        }
    }

    /// The command in the slot, a client's or the bridge's look-up; nil when idle.
    var record: CommandRecord? {
        switch self {
        case .idle: nil
        case .transaction(let record), .recoveryLookup(let record, _): record
        }
    }

    /// The client's transaction in the slot; nil when idle or looking up (what a callback may end).
    var transaction: CommandRecord? {
        guard case .transaction(let record) = self else { return nil }
        return record
    }

    /// Whether the slot is empty.
    var isIdle: Bool { record == nil }
}
