/// Capture of a pre-authorisation (v1.1, Viva's "Capture Pre-auth request" pages): `action=capture_pre_auth`
/// with an optional `amount` (the rest of the authorisation without it) and the authorisation named by
/// `shortOrderCode`, `orderCode` or `referenceNumber` (that precedence, as the iOS page gives it), or the
/// latest one with an amount left when none is named (the real app lists candidates after a date search;
/// the simulator picks the latest).
///
/// Answered at once, no card needed: `status=success&message=Transaction successful.&action=capture_pre_auth&
/// amount=…&referenceNumber=<a new STAN>&orderCode=<the authorisation's>&shortOrderCode=…&
/// authorisationCode=<the authorisation's>&tid=…&transactionDate=…&transactionId=<new>`. The authorisation's
/// `orderCode` is how a bridge tells which one was captured. A captured amount ending in 51 is declined by
/// the host, like a sale; an unknown authorisation or an amount above what is left is the app's failure.
extension TerminalApp {
    func capture(_ request: RequestURL, callback: String) {
        var asked: Int?
        if let text = nonEmptyValue(request, "amount") {
            guard let value = RequestValidation.cents(text), value > 0 else {
                captureFailed(callback: callback, message: .invalid("Amount must be an integer larger than zero."))
                return
            }
            asked = value
        }
        guard
            let index = book.capturablePreAuth(
                reference: nonEmptyValue(request, "referenceNumber"), orderCode: nonEmptyValue(request, "orderCode"),
                shortOrderCode: nonEmptyValue(request, "shortOrderCode")),
            var authorisation = book.record(at: index)
        else {
            captureFailed(callback: callback, message: .preAuthNotFound, amount: asked)
            return
        }
        let left = authorisation.amount - authorisation.captured
        let amount = asked ?? left
        guard amount <= left else {
            captureFailed(callback: callback, message: .captureTooLarge, amount: amount)
            return
        }
        guard OutcomeRule.outcome(forAmount: amount) != .decline else {
            captureFailed(callback: callback, message: .declined, amount: amount, authorisation: authorisation)
            return
        }
        authorisation.captured += amount
        book.replace(at: index, with: authorisation)
        effects.append(.updated(index: index, authorisation))
        let reference = nextReferenceNumber()
        let date = transactionDate()
        let transactionId = random.uuid()
        var url = builder(callback)
        url.add("status", "success")
        url.add("message", dialect.text(.approved))
        url.add("action", "capture_pre_auth")
        url.add("clientTransactionId", ifPresent: authorisation.clientTransactionId)
        url.add("amount", amount)
        url.add("cardType", ifPresent: authorisation.cardType)
        url.add("accountNumber", ifPresent: authorisation.accountNumber)
        url.add("referenceNumber", reference)
        url.add("authorisationCode", ifPresent: authorisation.authorisationCode)
        url.add("tid", terminalId)
        url.add("orderCode", ifPresent: authorisation.orderCode)
        url.add("shortOrderCode", ifPresent: authorisation.shortOrderCode)
        url.add("transactionDate", date)
        url.add("transactionId", transactionId)
        let written = url.url
        record(
            SimulatedTransaction(
                kind: .capture, outcome: .approved, amount: amount,
                clientTransactionId: authorisation.clientTransactionId,
                referenceNumber: reference, authorisationCode: authorisation.authorisationCode,
                orderCode: authorisation.orderCode, shortOrderCode: authorisation.shortOrderCode,
                transactionId: transactionId, transactionDate: date, accountNumber: authorisation.accountNumber,
                cardType: authorisation.cardType, callbackURL: written))
        emit(written)
    }

    private func captureFailed(
        callback: String, message: Dialect.Message, amount: Int? = nil, authorisation: SimulatedTransaction? = nil
    ) {
        var url = builder(callback)
        url.add("status", dialect.failed)
        url.add("message", dialect.text(message))
        url.add("action", "capture_pre_auth")
        if let amount { url.add("amount", amount) }
        url.add("orderCode", ifPresent: authorisation?.orderCode)
        emit(url.url)
    }

    private func nonEmptyValue(_ request: RequestURL, _ name: String) -> String? {
        guard let value = request.value(name), !value.isEmpty else { return nil }
        return value
    }
}
