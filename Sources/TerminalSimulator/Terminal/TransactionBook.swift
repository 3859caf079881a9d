/// A lane's completed transactions, oldest first, keeping the last `limit` (at least) of them, with the
/// look-ups cancels and transaction details need.
///
/// Indices are absolute (the first transaction ever is 0), so they stay valid while old ones are dropped.
/// One table, by `clientTransactionId`, answers transaction details at once: the bridge asks for them after
/// every sale whose outcome it does not know, often for a sale that never reached the host, and a search
/// that finds nothing reads every kept transaction (about 0.5 ms at 20,000, every lane waiting). The rarer
/// look-ups by reference number or order code (a cancel, a refund) search from the newest back, where what
/// they name nearly always is, so that a sale costs no hashing of its other identifiers.
struct TransactionBook: Sendable {
    private(set) var records: [SimulatedTransaction] = []
    private var base = 0
    private let limit: Int
    private let indexed: Bool
    private var hostSales: [String: Int] = [:]

    /// Creates an empty book keeping about `limit` transactions; `indexed` keeps the table by
    /// `clientTransactionId` (a book nobody asks for transaction details, as the observers' copy, needs none).
    init(limit: Int, indexed: Bool) {
        self.limit = max(1, limit)
        self.indexed = indexed
    }

    /// How many transactions were ever appended (kept or dropped).
    var totalCount: Int { base + records.count }

    /// Appends a transaction and returns its absolute index.
    @discardableResult
    mutating func append(_ record: SimulatedTransaction) -> Int {
        let index = base + records.count
        records.append(record)
        if indexed { addHostSale(record, at: index) }
        if records.count >= 2 * limit { trim() }
        return index
    }

    /// The transaction at absolute `index`, if still kept.
    func record(at index: Int) -> SimulatedTransaction? {
        let offset = index - base
        return records.indices.contains(offset) ? records[offset] : nil
    }

    /// Replaces the transaction at absolute `index`, if still kept.
    mutating func replace(at index: Int, with record: SimulatedTransaction) {
        let offset = index - base
        if records.indices.contains(offset) { records[offset] = record }
    }

    /// The approved sale with this `referenceNumber`, `orderCode` or `shortOrderCode` (latest first, in that
    /// precedence: a match of the reference number wins over a later match of the order code).
    func approvedSale(reference: String?, orderCode: String?, shortOrderCode: String?) -> Int? {
        func latestApproved(_ named: (SimulatedTransaction) -> Bool) -> Int? {
            latest { $0.kind == .sale && $0.outcome == .approved && named($0) }
        }
        if let reference, let index = latestApproved({ $0.referenceNumber == reference }) { return index }
        if let orderCode, let index = latestApproved({ $0.orderCode == orderCode }) { return index }
        if let shortOrderCode, let index = latestApproved({ $0.shortOrderCode == shortOrderCode }) { return index }
        return nil
    }

    /// The latest sale sent with this `clientTransactionId` that reached the host, approved or declined (in
    /// an `indexed` book).
    func hostSale(clientTransactionId: String) -> Int? {
        hostSales[clientTransactionId]
    }

    /// The latest transaction that reached the host (approved or declined) with this `orderCode`, or the
    /// latest one at all when `orderCode` is nil: what a reprint prints.
    func latestPrintable(orderCode: String?) -> SimulatedTransaction? {
        records.last { record in
            (record.outcome == .approved || record.outcome == .declined) && record.orderCode != nil
                && (orderCode == nil || record.orderCode == orderCode)
        }
    }

    /// The latest approved pre-authorisation with an amount left to capture that the identifiers name, in the
    /// precedence of Viva's iOS capture page (`shortOrderCode` over `orderCode` over `referenceNumber`); the
    /// latest one at all when none is given.
    func capturablePreAuth(reference: String?, orderCode: String?, shortOrderCode: String?) -> Int? {
        latest { record in
            guard record.kind == .preAuth, record.outcome == .approved, record.captured < record.amount else {
                return false
            }
            return if let shortOrderCode { record.shortOrderCode == shortOrderCode } else if let orderCode {
                record.orderCode == orderCode
            } else if let reference { record.referenceNumber == reference } else { true }
        }
    }

    /// The latest approved sale not yet cancelled.
    func latestCancellableSale() -> Int? {
        latest { $0.kind == .sale && $0.outcome == .approved && !$0.cancelled }
    }

    /// The absolute index of the latest kept transaction that `matches`.
    private func latest(where matches: (SimulatedTransaction) -> Bool) -> Int? {
        records.lastIndex(where: matches).map { base + $0 }
    }

    private mutating func addHostSale(_ record: SimulatedTransaction, at index: Int) {
        guard record.kind == .sale, record.outcome == .approved || record.outcome == .declined,
            let clientTransactionId = record.clientTransactionId
        else { return }
        hostSales[clientTransactionId] = index
    }

    private mutating func trim() {
        let dropped = records.count - limit
        records.removeFirst(dropped)
        base += dropped
        guard indexed else { return }
        hostSales.removeAll(keepingCapacity: true)
        for (offset, record) in records.enumerated() { addHostSale(record, at: base + offset) }
    }
}
