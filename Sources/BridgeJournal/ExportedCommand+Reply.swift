import BridgeCore
import InterApp

extension ExportedCommand {
    /// A journal row, from its columns: `summary` is what its reply columns hold.
    package init(
        id: String, client: String?, lane: String?, action: String, outcome: String?, summary: ReplySummary,
        createdMs: Int64, updatedMs: Int64
    ) {
        self.id = id
        self.client = client
        self.lane = lane
        self.action = action
        self.outcome = outcome
        amount = summary.amount
        tip = summary.tip
        errorCode = summary.errorCode
        failureReason = summary.failureReason
        referenceNumber = summary.referenceNumber
        orderCode = summary.orderCode
        card = summary.card
        batch = summary.batch
        resolved = summary.resolvedAt
        resolvedBy = summary.resolvedBy
        note = summary.resolvedNote
        self.createdMs = createdMs
        self.updatedMs = updatedMs
    }

    /// A journal row without reply columns (one no bridge of `v1.1-reply-columns` has opened yet): `reply`
    /// is the stored reply's JSON, `fingerprint` the command's canonical JSON.
    package init(
        id: String, lane: String?, action: String, fingerprint: String, outcome: String?, reply: String?,
        createdMs: Int64, updatedMs: Int64
    ) {
        let object = reply.flatMap { try? JSONValue.parse($0).objectValue } ?? JSONObject()
        self.init(
            id: id, client: object["client"]?.stringValue, lane: lane, action: action,
            outcome: object["outcome"]?.stringValue ?? outcome,
            summary: ReplySummary(storedReply: object, fingerprint: fingerprint), createdMs: createdMs,
            updatedMs: updatedMs)
    }
}
