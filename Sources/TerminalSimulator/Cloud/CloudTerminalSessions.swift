import Foundation

/// The Cloud Terminal API's sessions in the simulated back office: a sale, capture or refund posted under a
/// `sessionId` runs for ``CloudFaults/sessionMs`` (202), then ends as ``OutcomeRule`` says for its amount
/// (200), written to the ledger with its type; `DELETE` aborts a running one. A `sessionId` posted again is
/// refused 409 and counted: the bridge must never post one session twice once Viva holds it. A capture or a
/// referenced refund names its parent session, which must have ended approved (a pre-authorisation for a
/// capture, a payment for a refund) for at least the amount; otherwise 400 and no session.
struct CloudTerminalSessions {
    struct Session {
        var sale: Sale
        var postedAt: Date
        var answer: [String: Any]?
        var aborted = false
    }

    /// The calls of `POST /ecr/v1/transactions:<word>`.
    enum Call: String {
        case sale
        case preauthCompletion = "preauth-completion"
        case refund
        case unreferencedRefund = "unreferenced-refund"
        case fastRefund = "fast-refund"

        /// Whether the call names a parent session.
        var hasParent: Bool { self == .preauthCompletion || self == .refund }
    }

    /// What a POST carries that the simulation uses.
    struct Sale {
        var call: Call
        var sessionId: String
        var terminalId: String
        var cashRegisterId: String
        var amount: Int
        var merchantReference: String?
        var preauth: Bool
        var parentSessionId: String?

        init?(call: Call, json: [UInt8]) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
                let sessionId = object["sessionId"] as? String, !sessionId.isEmpty,
                let terminalId = (object["terminalId"] as? String) ?? (object["terminalId"] as? Int).map(String.init),
                let cashRegisterId = object["cashRegisterId"] as? String,
                let amount = object["amount"] as? Int, amount > 0
            else { return nil }
            self.call = call
            self.sessionId = sessionId
            self.terminalId = terminalId
            self.cashRegisterId = cashRegisterId
            self.amount = amount
            self.merchantReference = object["merchantReference"] as? String
            self.preauth = call == .sale && object["preauth"] as? Bool ?? false
            self.parentSessionId = object["parentSessionId"] as? String
        }

        /// The `TransactionTypeId` of its record (Viva's table: 0 capture, 1 pre-auth, 4 refund, 5 payment).
        var typeId: Int {
            switch call {
            case .sale: preauth ? 1 : 5
            case .preauthCompletion: 0
            case .refund, .unreferencedRefund, .fastRefund: 4
            }
        }
    }

    static let path = "/ecr/v1/sessions/"
    static let transactionsPath = "/ecr/v1/transactions:"

    private(set) var sessions: [String: Session] = [:]
    /// POSTs for a `sessionId` the back office already held.
    private(set) var repeatedPosts = 0

    /// The call a `POST` path names, if any.
    static func call(ofPath path: String) -> Call? {
        guard path.hasPrefix(transactionsPath) else { return nil }
        return Call(rawValue: String(path.dropFirst(transactionsPath.count)))
    }

    /// `POST /ecr/v1/transactions:<call>`.
    mutating func post(
        _ call: Call, _ body: [UInt8], now: Date, faults: inout CloudFaults, ledger: CloudLedger
    ) -> CloudResponse {
        guard let sale = Sale(call: call, json: body) else {
            return CloudJSON.response(
                400, ["detail": "sessionId, terminalId, cashRegisterId and a positive amount in cents are required"])
        }
        guard sessions[sale.sessionId] == nil else {
            repeatedPosts += 1
            return CloudJSON.response(409, ["detail": "A session with this id already exists"])
        }
        if call.hasParent, let refusal = parentRefusal(sale, now: now, faults: faults, ledger: ledger) {
            return CloudJSON.response(400, ["detail": refusal])
        }
        sessions[sale.sessionId] = Session(sale: sale, postedAt: now)
        if faults.lostPostAnswers > 0 {
            faults.lostPostAnswers -= 1
            return CloudJSON.response(502, ["message": "simulated fault: the request was applied, its answer lost"])
        }
        return CloudResponse(status: 200, body: [])
    }

    /// Why a capture or referenced refund cannot be made against its parent session, or nil when it can.
    private mutating func parentRefusal(
        _ sale: Sale, now: Date, faults: CloudFaults, ledger: CloudLedger
    ) -> String? {
        guard let parentId = sale.parentSessionId, !parentId.isEmpty else { return "parentSessionId is required" }
        guard let parent = settled(parentId, now: now, faults: faults, ledger: ledger)?.sale,
            sessions[parentId]?.answer?["success"] as? Bool == true
        else { return "Parent session not found or not approved" }
        let capturable = parent.preauth
        guard sale.call == .preauthCompletion ? capturable : !capturable else {
            return sale.call == .preauthCompletion
                ? "Parent session is not a pre-authorisation" : "A pre-authorisation is not refunded: capture it"
        }
        guard sale.amount <= parent.amount else { return "Amount exceeds the parent transaction's" }
        return nil
    }

    /// `GET /ecr/v1/sessions/{id}?cashRegisterId=`: 202 while it runs, 200 with its result once ended.
    mutating func get(
        _ id: String, cashRegisterId: String?, now: Date, faults: CloudFaults, ledger: CloudLedger
    ) -> CloudResponse {
        guard let session = sessions[id], session.sale.cashRegisterId == cashRegisterId,
            let settled = settled(id, now: now, faults: faults, ledger: ledger)
        else {
            return CloudJSON.response(404, ["detail": "Session not found"])
        }
        guard let answer = settled.answer else {
            return CloudJSON.response(202, ["detail": "The session is being processed"])
        }
        return CloudJSON.response(200, answer)
    }

    /// Session `id` (nil when not held), ended first when its time has come.
    private mutating func settled(_ id: String, now: Date, faults: CloudFaults, ledger: CloudLedger) -> Session? {
        guard var session = sessions[id] else { return nil }
        if session.answer == nil, !session.aborted, !faults.sessionsNeverFinish,
            now >= session.postedAt.addingTimeInterval(Double(faults.sessionMs) / 1000)
        {
            session.answer = Self.end(session.sale, faults: faults, ledger: ledger)
            sessions[id] = session
        }
        return session
    }

    /// `DELETE /ecr/v1/sessions/{id}?cashRegisterId=`: a running session ends aborted.
    mutating func delete(_ id: String, cashRegisterId: String?) -> CloudResponse {
        guard var session = sessions[id], session.sale.cashRegisterId == cashRegisterId else {
            return CloudJSON.response(404, ["detail": "Session not found"])
        }
        if session.answer == nil {
            session.aborted = true
            session.answer = Self.fields(session.sale).merging(
                ["success": false, "abortOperation": true, "abortSuccess": true, "message": "Transaction aborted"]
            ) { _, new in new }
            sessions[id] = session
        }
        return CloudResponse(status: 200, body: [])
    }

    /// The session's end: written to the ledger (an approval `F`, a decline `E`) and answered as Viva does.
    private static func end(_ sale: Sale, faults: CloudFaults, ledger: CloudLedger) -> [String: Any] {
        var answer = fields(sale)
        let approved: Bool
        switch OutcomeRule.outcome(forAmount: sale.amount) {
        case .approve, .approveUnanswered: approved = true
        case .decline, .hostError: approved = false
        case .cardholderCancel:
            answer["success"] = false
            answer["message"] = "Transaction cancelled by the cardholder"
            return answer
        }
        let entry = ledger.record(
            statusId: approved && !faults.sessionsDisagree ? "F" : "E", amount: sale.amount,
            merchantTrns: sale.merchantReference, terminalId: sale.terminalId, typeId: sale.typeId)
        answer["transactionId"] = entry.transactionId
        answer["success"] = approved
        answer["eventId"] = approved ? 0 : 10051
        answer["message"] = approved ? "Transaction approved" : "Transaction declined"
        answer["orderCode"] = Int64(entry.orderCode) ?? 0
        answer["shortOrderCode"] = Int64(entry.orderCode.suffix(10)) ?? 0
        answer["authorizationId"] = approved ? "123456" : ""
        answer["retrievalReferenceNumber"] = String(entry.orderCode.suffix(12))
        answer["primaryAccountNumberMasked"] = "479275XXXXXX9999"
        answer["applicationLabel"] = "VISA"
        answer["transactionDateTime"] = entry.insDate
        return answer
    }

    private static func fields(_ sale: Sale) -> [String: Any] {
        [
            "sessionId": sale.sessionId, "terminalId": sale.terminalId, "cashRegisterId": sale.cashRegisterId,
            "amount": sale.amount, "currencyCode": "978", "merchantReference": sale.merchantReference ?? NSNull(),
            "preauth": sale.preauth, "abortOperation": false, "abortSuccess": false,
        ]
    }
}
