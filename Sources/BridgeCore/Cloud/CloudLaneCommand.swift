import InterApp
import VivaCloudModels

/// What a command on a cloud lane becomes at Viva's Cloud Terminal API, and what Viva's answer becomes in
/// the reply: the transport's one translation, with no I/O (docs/CLOUD.md, "Cloud lanes").
enum CloudLaneCommand {
    /// The actions a cloud lane runs, each a session of its ``call(for:)``, and `abort` as the session deleted.
    /// Queries (`status`, `lanes`) are the bridge's own and run on any lane.
    static let actions: Set<TerminalAction> = [
        .sale, .preAuth, .capturePreAuth, .cancel, .unreferencedRefund, .fastRefund, .abort,
    ]

    /// The `show_*` flags a session carries; `show_rating` is taken and has no effect (the cloud's app shows
    /// no rating screen).
    private static let screens: Set<String> = ["show_receipt", "show_transaction_result", "show_rating"]

    /// The command's parameters each action's session carries; any other is refused.
    static func carriedParameters(of action: TerminalAction) -> Set<String> {
        switch action {
        case .sale, .preAuth: screens.union(["amount", "tipAmount", "clientTransactionId"])
        case .capturePreAuth, .cancel: screens.union(["amount", TerminalCommand.parentIdName])
        case .unreferencedRefund, .fastRefund: screens.union(["amount", "clientTransactionId"])
        default: []
        }
    }

    /// The parameters a cloud lane needs that a relay lane does not: a capture's or referenced refund's
    /// parent, and its amount (the session's call has no "the whole authorisation").
    static func requiredParameters(of action: TerminalAction) -> [String] {
        action == .capturePreAuth || action == .cancel ? [TerminalCommand.parentIdName, "amount"] : []
    }

    /// The call of Viva's Cloud Terminal API that runs `action`.
    static func call(for action: TerminalAction) -> CloudTerminalCall {
        switch action {
        case .capturePreAuth: .preauthCompletion
        case .cancel: .refund
        case .unreferencedRefund: .unreferencedRefund
        case .fastRefund: .fastRefund
        default: .sale
        }
    }

    /// Why `terminal` cannot run on cloud lane `lane`, as the refusal its sender gets (nothing is sent), or nil
    /// when it can.
    static func refusal(_ terminal: TerminalCommand, id: String) -> Rejection? {
        let action = terminal.action
        func refused(_ code: RejectionCode, _ message: String) -> Rejection {
            Rejection(code, message, id: id, lane: terminal.lane, action: action.rawValue)
        }
        guard actions.contains(action) else {
            return refused(
                .unsupportedOnTransport,
                "\(action.rawValue) is not offered on cloud lane \(terminal.lane): it takes "
                    + actions.map(\.rawValue).sorted().joined(separator: ", ")
                    + "; send it to a relay lane, or do it in Viva's app or portal")
        }
        let carried = carriedParameters(of: action)
        let dropped = terminal.parameters.map(\.name).filter { !carried.contains($0) }
        guard dropped.isEmpty else {
            let how =
                action == .cancel || action == .capturePreAuth
                ? "name the transaction by parentId, the id of the command that made it" : "send it without it"
            return refused(
                .unsupportedOnTransport,
                "cloud lane \(terminal.lane) cannot carry " + dropped.joined(separator: ", ")
                    + " (Viva's Cloud Terminal API has no such field): \(how), or send the \(action.rawValue) to a "
                    + "relay lane")
        }
        if let missing = requiredParameters(of: action).first(where: { terminal.parameter($0) == nil }) {
            return refused(
                .missingField,
                "\(missing) is required for \(action.rawValue) on cloud lane \(terminal.lane)"
                    + (missing == TerminalCommand.parentIdName
                        ? ": the id of this bridge's command whose transaction it \(action == .cancel ? "refunds" : "captures")"
                        : ": Viva's call takes the amount in cents"))
        }
        return nil
    }

    /// Why `terminal` cannot run on relay lane `lane` although the action table takes it, or nil: `parentId`
    /// names a cloud session, which a relay lane's app does not know.
    static func relayRefusal(_ terminal: TerminalCommand, id: String) -> Rejection? {
        guard terminal.parentId != nil else { return nil }
        return Rejection(
            .unsupportedOnTransport,
            "parentId is for cloud lanes; on relay lane \(terminal.lane) name the transaction by referenceNumber, "
                + "orderCode or shortOrderCode", id: id, lane: terminal.lane, action: terminal.action.rawValue)
    }

    /// The session's request for `terminal` (``refusal(_:id:)`` said nil), command `id`, under `sessionId`;
    /// `parentSessionId` is the session of its `parentId` (a capture or referenced refund). The
    /// `merchantReference` is the command's `clientTransactionId`, else its `id`: what Viva's records then show
    /// as `MerchantTrns`.
    static func request(
        _ terminal: TerminalCommand, id: String, sessionId: String, parentSessionId: String?, on device: CloudTerminal
    ) -> CloudTerminalRequest {
        let action = terminal.action
        return CloudTerminalRequest(
            call: call(for: action), sessionId: sessionId, terminalId: device.terminalId,
            cashRegisterId: device.cashRegisterId, amount: terminal.parameter("amount").flatMap { Int($0) } ?? 0,
            merchantReference: terminal.clientTransactionId ?? id,
            preauth: action == .preAuth ? true : nil,
            tipAmount: action == .sale ? terminal.parameter("tipAmount").flatMap { Int($0) } : nil,
            showTransactionResult: terminal.parameter("show_transaction_result").map { $0 == "true" },
            showReceipt: terminal.parameter("show_receipt").map { $0 == "true" },
            parentSessionId: parentSessionId)
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
