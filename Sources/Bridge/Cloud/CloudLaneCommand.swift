import InterApp
import VivaCloud

/// What a command on a cloud lane becomes at Viva's Cloud Terminal API, and what Viva's answer becomes in
/// the reply: the transport's one translation, with no I/O (docs/CLOUD.md, "Cloud lanes").
enum CloudLaneCommand {
    /// The actions a cloud lane runs: a sale or a pre-authorisation posted as a session, and `abort` as the
    /// session deleted. Queries (`status`, `lanes`) are the bridge's own and run on any lane.
    static let actions: Set<TerminalAction> = [.sale, .preAuth, .abort]

    /// The command's parameters the session carries; `show_rating` is taken and has no effect (the cloud's
    /// app shows no rating screen).
    static let carriedParameters: Set<String> = [
        "amount", "tipAmount", "clientTransactionId", "show_receipt", "show_transaction_result", "show_rating",
    ]

    /// Why `terminal` cannot run on cloud lane `lane`, as the refusal its sender gets (nothing is sent), or nil
    /// when it can.
    static func refusal(_ terminal: TerminalCommand, id: String) -> Rejection? {
        guard actions.contains(terminal.action) else {
            return Rejection(
                .unsupportedOnTransport,
                "\(terminal.action.rawValue) is not offered on cloud lane \(terminal.lane): it takes "
                    + actions.map(\.rawValue).sorted().joined(separator: ", ")
                    + "; send it to a relay lane, or do it in Viva's app or portal",
                id: id, lane: terminal.lane, action: terminal.action.rawValue)
        }
        let dropped = terminal.parameters.map(\.name).filter { !carriedParameters.contains($0) }
        guard dropped.isEmpty else {
            return Rejection(
                .unsupportedOnTransport,
                "cloud lane \(terminal.lane) cannot carry " + dropped.joined(separator: ", ")
                    + " (Viva's Cloud Terminal API has no such field): send the \(terminal.action.rawValue) without "
                    + "it, or to a relay lane",
                id: id, lane: terminal.lane, action: terminal.action.rawValue)
        }
        return nil
    }

    /// The session's request for a sale or pre-authorisation `terminal` (``refusal(_:id:)`` said nil), under
    /// `sessionId`; `merchantReference` is the command's `clientTransactionId` (its id unless it chose one),
    /// which Viva's records then show as `MerchantTrns`.
    static func sale(_ terminal: TerminalCommand, sessionId: String, on device: CloudTerminal) -> CloudTerminalSale {
        CloudTerminalSale(
            sessionId: sessionId, terminalId: device.terminalId, cashRegisterId: device.cashRegisterId,
            amount: terminal.parameter("amount").flatMap { Int($0) } ?? 0,
            merchantReference: terminal.clientTransactionId,
            preauth: terminal.action == .preAuth ? true : nil,
            tipAmount: terminal.parameter("tipAmount").flatMap { Int($0) },
            showTransactionResult: terminal.parameter("show_transaction_result").map { $0 == "true" },
            showReceipt: terminal.parameter("show_receipt").map { $0 == "true" })
    }

    /// The outcome `result` makes: `success` only for a session Viva's transaction record confirmed; a
    /// declined session `failure` (`aborted` when the bridge deleted it); a request Viva refused
    /// `undeliverable` (no session was started); anything else `unknown`.
    static func reply(_ result: CloudSessionResult, sessionId: String, aborted: Bool) -> Reply {
        switch result {
        case .approved(let session, let record):
            var fields = Self.fields(of: session, sessionId: sessionId)
            fields["amount"] = .number(JSONNumber(record.amountCents))
            fields["statusId"] = .string(record.statusId.rawValue)
            return .outcome(
                .success, session.message ?? "approved; Viva's transaction record confirms it", result: fields)
        case .declined(let session):
            let outcome: Outcome = aborted || session.abortOperation == true ? .aborted : .failure
            return .outcome(outcome, session.message ?? "declined", result: fields(of: session, sessionId: sessionId))
        case .refused(let error):
            return .outcome(
                .undeliverable,
                "Viva's cloud refused the request, so no session was started (\(error)); safe to retry under a new "
                    + "id once that is fixed")
        case .unknown(let unknown):
            var fields = unknown.session.map { Self.fields(of: $0, sessionId: sessionId) } ?? [:]
            fields["sessionId"] = .string(sessionId)
            return .outcome(.unknown, unknown.reason, result: fields)
        }
    }

    /// The session's fields under the names a relay lane's reply uses; the card number masked.
    static func fields(of session: CloudTerminalSession, sessionId: String) -> JSONObject {
        var fields = JSONObject()
        fields["sessionId"] = .string(sessionId)
        func put(_ key: String, _ value: String?) {
            if let value, !value.isEmpty { fields[key] = .string(value) }
        }
        if let amount = session.amount { fields["amount"] = .number(JSONNumber(amount)) }
        put("clientTransactionId", session.merchantReference)
        put("transactionId", session.transactionId)
        put("orderCode", session.orderCode?.value)
        put("shortOrderCode", session.shortOrderCode?.value)
        put("rrn", session.retrievalReferenceNumber)
        put("authorisationCode", session.authorizationId)
        put("referenceNumber", session.referenceNumber?.value)
        put("tid", session.tid?.value ?? session.terminalId?.value)
        put("cardType", session.applicationLabel)
        put("transactionDate", session.transactionDateTime)
        put("accountNumber", session.primaryAccountNumberMasked.map(Masking.maskCardNumber))
        // A string, as every callback field but the amounts (reply.schema.json, callbackResult).
        if let eventId = session.eventId { fields["eventId"] = .string(String(eventId)) }
        return fields
    }
}
