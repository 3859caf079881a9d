import InterApp

extension StoredCommand {
    /// What the journal stores of `record`: as accepted (its state and deadline) or, given `final`, as
    /// ended with that outcome and reply. The one conversion from a record to a stored command.
    package init(_ record: CommandRecord, createdMs: Int64, final: (outcome: Outcome, reply: String)? = nil) {
        self.init(
            id: record.id, lane: record.lane, action: record.action, fingerprint: record.fingerprint,
            clientTransactionId: record.clientTransactionId, state: final == nil ? record.state : .final,
            outcome: final?.outcome, reply: final?.reply, deadlineMs: final == nil ? record.deadlineMs : nil,
            createdMs: createdMs, client: record.client, seq: record.journalSeq)
    }
}
