import InterApp

/// What a finished command's reply says that a day's reconciliation needs, as the journal's reply
/// columns hold it (migration `v1.1-reply-columns`): read from the reply once, when the bridge journals
/// it, so that `journal export` reads columns instead of parsing JSON. No secret and no unmasked card
/// number: the reply never holds them.
@usableFromInline package struct ReplySummary: Sendable, Equatable {
    /// In cents: the amount the terminal reported (`result.amount`), else the amount the command asked.
    @usableFromInline package var amount: Int?
    /// In cents: the tip the terminal reported (`result.tipAmount`), else the tip the command asked.
    @usableFromInline package var tip: Int?
    /// The reply's `error.code`, for a `rejected` command.
    @usableFromInline package var errorCode: String?
    /// The reply's `reason`, for a `failure`.
    @usableFromInline package var failureReason: String?
    /// The terminal's reference number (`result.referenceNumber`).
    @usableFromInline package var referenceNumber: String?
    /// Viva's order code (`result.orderCode`).
    @usableFromInline package var orderCode: String?
    /// The card number as stored: masked to its first 6 and last 4 digits.
    @usableFromInline package var card: String?
    /// The batch the terminal named (`result.batchId`, else `result.batchName`).
    @usableFromInline package var batch: String?
    /// For an `unknown` command closed by hand (`resolve`): when (`resolved.at`, RFC 3339).
    @usableFromInline package var resolvedAt: String?
    /// Who closed it (`resolved.by`, the admin client's name; nil on plain sockets).
    @usableFromInline package var resolvedBy: String?
    /// The note it was closed with (`resolved.note`).
    @usableFromInline package var resolvedNote: String?

    /// Field names a card number may arrive under, first found wins (they are masked before storage).
    private static let cardFields = ["accountNumber", "cardNumber", "pan", "primaryAccountNumber"]

    /// A summary as the reply columns hold it.
    package init(
        amount: Int?, tip: Int?, errorCode: String?, failureReason: String?, referenceNumber: String?,
        orderCode: String?, card: String?, batch: String?, resolvedAt: String? = nil, resolvedBy: String? = nil,
        resolvedNote: String? = nil
    ) {
        self.amount = amount
        self.tip = tip
        self.errorCode = errorCode
        self.failureReason = failureReason
        self.referenceNumber = referenceNumber
        self.orderCode = orderCode
        self.card = card
        self.batch = batch
        self.resolvedAt = resolvedAt
        self.resolvedBy = resolvedBy
        self.resolvedNote = resolvedNote
    }

    /// The summary of `reply`; `fingerprint` (the command's canonical JSON) is parsed only when the
    /// result reports no amount or no tip, for the ones the command asked.
    package init(reply: Reply, fingerprint: String) {
        self.init(
            result: reply.result, errorCode: reply.error?.code.rawValue, failureReason: reply.reason?.rawValue,
            resolved: reply.resolved, fingerprint: fingerprint)
    }

    /// The summary of a stored reply, read as JSON (a journal row written before the reply columns, an
    /// unknown sale's reply with a look-up's details).
    package init(storedReply reply: JSONObject, fingerprint: String) {
        self.init(
            result: reply["result"]?.objectValue, errorCode: reply["error"]?.objectValue?["code"]?.stringValue,
            failureReason: reply["reason"]?.stringValue, resolved: reply["resolved"]?.objectValue,
            fingerprint: fingerprint)
    }

    /// The summary of a stored reply's JSON text (empty when there is none or it does not parse).
    package init(replyText: String?, fingerprint: String) {
        let reply = replyText.flatMap { try? JSONValue.parse($0).objectValue } ?? JSONObject()
        self.init(storedReply: reply, fingerprint: fingerprint)
    }

    private init(
        result: JSONObject?, errorCode: String?, failureReason: String?, resolved: JSONObject?, fingerprint: String
    ) {
        let result = result ?? JSONObject()
        let reportedAmount = result["amount"]?.intValue
        let reportedTip = result["tipAmount"]?.intValue
        var asked: JSONObject?
        if reportedAmount == nil || reportedTip == nil {
            asked = try? JSONValue.parse(fingerprint).objectValue
        }
        amount = reportedAmount ?? asked?["amount"]?.intValue
        tip = reportedTip ?? asked?["tipAmount"]?.intValue
        self.errorCode = errorCode
        self.failureReason = failureReason
        referenceNumber = result["referenceNumber"]?.stringValue
        orderCode = result["orderCode"]?.stringValue
        card = Self.cardFields.lazy.compactMap { result[$0]?.stringValue }.first
        batch = result["batchId"]?.stringValue ?? result["batchName"]?.stringValue
        resolvedAt = resolved?["at"]?.stringValue
        resolvedBy = resolved?["by"]?.stringValue
        resolvedNote = resolved?["note"]?.stringValue
    }

    /// What it holds in `column`.
    ///
    /// Inlined into the SQLite writer's binding (another module), which runs it for every column of every outcome.
    @inlinable @inline(__always) package func value(_ column: Columns) -> ColumnValue {
        switch column {
        case .amount: .integer(amount)
        case .tip: .integer(tip)
        case .errorCode: .text(errorCode)
        case .failureReason: .text(failureReason)
        case .referenceNumber: .text(referenceNumber)
        case .orderCode: .text(orderCode)
        case .card: .text(card)
        case .batch: .text(batch)
        case .resolvedAt: .text(resolvedAt)
        case .resolvedBy: .text(resolvedBy)
        case .resolvedNote: .text(resolvedNote)
        }
    }
}

extension ReplySummary {
    /// The reply columns (migration `v1.1-reply-columns`), of `outcome_log` and the `commands` view.
    @usableFromInline package enum Columns: String, JournalColumns {
        case amount, tip
        case errorCode = "error_code"
        case failureReason = "failure_reason"
        case referenceNumber = "reference_number"
        case orderCode = "order_code"
        case card, batch
        case resolvedAt = "resolved_at"
        case resolvedBy = "resolved_by"
        case resolvedNote = "resolved_note"

        package var kind: ColumnKind {
            switch self {
            case .amount, .tip: .integer
            default: .text
            }
        }
    }

    /// The reply columns in the order they are written.
    package static let columns = Columns.allCases
}
