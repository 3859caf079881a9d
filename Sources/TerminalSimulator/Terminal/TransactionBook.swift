/// A lane's completed transactions, oldest first, keeping the last `limit` (at least) of them, with the
/// look-ups cancels and transaction details need.
///
/// Indices are absolute (the first transaction ever is 0), so they stay valid while old ones are dropped.
/// The look-up tables are brought up to date by the look-ups themselves: a lane that only sells (nearly
/// every sale, and the benchmark) never hashes a transaction's identifiers.
struct TransactionBook: Sendable {
    private(set) var records: [SimulatedTransaction] = []
    private var base = 0
    private let limit: Int
    /// The absolute index of the first transaction the look-up tables have not taken in yet.
    private var indexedUpTo = 0
    private var byReference: [String: Int] = [:]
    private var byOrderCode: [String: Int] = [:]
    private var byShortOrderCode: [String: Int] = [:]
    private var byClientTransactionId: [String: Int] = [:]

    /// Creates an empty book keeping about `limit` transactions.
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// How many transactions were ever appended (kept or dropped).
    var totalCount: Int { base + records.count }

    /// Appends a transaction and returns its absolute index.
    @discardableResult
    mutating func append(_ record: SimulatedTransaction) -> Int {
        let index = base + records.count
        records.append(record)
        if records.count >= 2 * limit { trim() }
        return index
    }

    /// The transaction at absolute `index`, if still kept.
    func record(at index: Int) -> SimulatedTransaction? {
        let offset = index - base
        return records.indices.contains(offset) ? records[offset] : nil
    }

    /// Replaces the transaction at absolute `index`, if still kept. Only what the look-ups do not read may
    /// change (a sale's `cancelled`, a pre-authorisation's `captured`): a transaction not yet taken into the
    /// tables would be found by its new identifiers.
    mutating func replace(at index: Int, with record: SimulatedTransaction) {
        let offset = index - base
        if records.indices.contains(offset) { records[offset] = record }
    }

    /// The approved sale with this `referenceNumber`, `orderCode` or `shortOrderCode` (latest first).
    mutating func approvedSale(reference: String?, orderCode: String?, shortOrderCode: String?) -> Int? {
        updateIndex()
        if let reference, let index = byReference[reference] { return index }
        if let orderCode, let index = byOrderCode[orderCode] { return index }
        if let shortOrderCode, let index = byShortOrderCode[shortOrderCode] { return index }
        return nil
    }

    /// The latest sale sent with this `clientTransactionId` that reached the host, approved or declined.
    mutating func hostSale(clientTransactionId: String) -> Int? {
        updateIndex()
        return byClientTransactionId[clientTransactionId]
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
        for offset in records.indices.reversed() {
            let record = records[offset]
            guard record.kind == .preAuth, record.outcome == .approved, record.captured < record.amount else {
                continue
            }
            let named =
                if let shortOrderCode { record.shortOrderCode == shortOrderCode } else if let orderCode {
                    record.orderCode == orderCode
                } else if let reference { record.referenceNumber == reference } else { true }
            if named { return base + offset }
        }
        return nil
    }

    /// The latest approved sale not yet cancelled.
    func latestCancellableSale() -> Int? {
        for offset in records.indices.reversed() {
            let record = records[offset]
            if record.kind == .sale && record.outcome == .approved && !record.cancelled { return base + offset }
        }
        return nil
    }

    /// Takes the transactions appended since the last look-up into the tables, oldest first (a later one
    /// with the same identifier wins); after a trim, builds them again from the transactions kept.
    private mutating func updateIndex() {
        if indexedUpTo < base {
            byReference.removeAll(keepingCapacity: true)
            byOrderCode.removeAll(keepingCapacity: true)
            byShortOrderCode.removeAll(keepingCapacity: true)
            byClientTransactionId.removeAll(keepingCapacity: true)
            indexedUpTo = base
        }
        while indexedUpTo < totalCount {
            addToIndex(records[indexedUpTo - base], at: indexedUpTo)
            indexedUpTo += 1
        }
    }

    private mutating func addToIndex(_ record: SimulatedTransaction, at index: Int) {
        guard record.kind == .sale else { return }
        if record.outcome == .approved || record.outcome == .declined, let value = record.clientTransactionId {
            byClientTransactionId[value] = index
        }
        guard record.outcome == .approved else { return }
        if let value = record.referenceNumber { byReference[value] = index }
        if let value = record.orderCode { byOrderCode[value] = index }
        if let value = record.shortOrderCode { byShortOrderCode[value] = index }
    }

    private mutating func trim() {
        let dropped = records.count - limit
        records.removeFirst(dropped)
        base += dropped
        // The tables may name dropped transactions: built again from the kept ones at the next look-up.
        indexedUpTo = 0
    }
}
