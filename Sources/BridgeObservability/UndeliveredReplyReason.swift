/// Why a reply was not delivered; its `reason` in `vivabridge_replies_undelivered_total`.
package enum UndeliveredReplyReason: String, CaseIterable, Sendable {
    /// The caller's queue is full: it does not read (the reply is dropped).
    case notReading = "not_reading"
    /// The caller's connection is gone.
    case gone
}
