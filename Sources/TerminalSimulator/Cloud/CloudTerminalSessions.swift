import Foundation

/// The Cloud Terminal API's sessions in the simulated back office: a sale posted under a `sessionId` runs
/// for ``CloudFaults/sessionMs`` (202), then ends as ``OutcomeRule`` says for its amount (200), written to
/// the ledger; `DELETE` aborts a running one. A `sessionId` posted again is refused 409 and counted: the
/// bridge must never post one session twice once Viva holds it.
struct CloudTerminalSessions {
    struct Session {
        var sale: Sale
        var postedAt: Date
        var answer: [String: Any]?
        var aborted = false
    }

    /// What a sale's POST carries that the simulation uses.
    struct Sale {
        var sessionId: String
        var terminalId: String
        var cashRegisterId: String
        var amount: Int
        var merchantReference: String?
        var preauth: Bool

        init?(json: [UInt8]) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
                let sessionId = object["sessionId"] as? String, !sessionId.isEmpty,
                let terminalId = (object["terminalId"] as? String) ?? (object["terminalId"] as? Int).map(String.init),
                let cashRegisterId = object["cashRegisterId"] as? String,
                let amount = object["amount"] as? Int, amount > 0
            else { return nil }
            self.sessionId = sessionId
            self.terminalId = terminalId
            self.cashRegisterId = cashRegisterId
            self.amount = amount
            self.merchantReference = object["merchantReference"] as? String
            self.preauth = object["preauth"] as? Bool ?? false
        }
    }

    static let path = "/ecr/v1/sessions/"
    static let salePath = "/ecr/v1/transactions:sale"

    private(set) var sessions: [String: Session] = [:]
    /// Sale POSTs for a `sessionId` the back office already held.
    private(set) var repeatedPosts = 0

    /// `POST /ecr/v1/transactions:sale`.
    mutating func post(_ body: [UInt8], now: Date, faults: inout CloudFaults) -> CloudResponse {
        guard let sale = Sale(json: body) else {
            return CloudJSON.response(
                400, ["detail": "sessionId, terminalId, cashRegisterId and a positive amount in cents are required"])
        }
        guard sessions[sale.sessionId] == nil else {
            repeatedPosts += 1
            return CloudJSON.response(409, ["detail": "A session with this id already exists"])
        }
        sessions[sale.sessionId] = Session(sale: sale, postedAt: now)
        if faults.lostPostAnswers > 0 {
            faults.lostPostAnswers -= 1
            return CloudJSON.response(502, ["message": "simulated fault: the sale was applied, its answer lost"])
        }
        return CloudResponse(status: 200, body: [])
    }

    /// `GET /ecr/v1/sessions/{id}?cashRegisterId=`: 202 while it runs, 200 with its result once ended.
    mutating func get(
        _ id: String, cashRegisterId: String?, now: Date, faults: CloudFaults, ledger: CloudLedger
    ) -> CloudResponse {
        guard var session = sessions[id], session.sale.cashRegisterId == cashRegisterId else {
            return CloudJSON.response(404, ["detail": "Session not found"])
        }
        if session.answer == nil, !session.aborted, !faults.sessionsNeverFinish,
            now >= session.postedAt.addingTimeInterval(Double(faults.sessionMs) / 1000)
        {
            session.answer = Self.end(session.sale, faults: faults, ledger: ledger)
            sessions[id] = session
        }
        guard let answer = session.answer else {
            return CloudJSON.response(202, ["detail": "The session is being processed"])
        }
        return CloudJSON.response(200, answer)
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
            merchantTrns: sale.merchantReference, terminalId: sale.terminalId)
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
