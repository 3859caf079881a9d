/// Cancels (refunds) of the app's own sales, found by `referenceNumber`, `orderCode` or `shortOrderCode`.
///
/// The cardholder always presents the card first (Viva's samples: the reference is matched among that
/// card's last transactions), so a cancel can be aborted while the card is awaited. With a reference the
/// sale it names is then reversed; without one the latest sale not yet cancelled (the real app lists the
/// card's last three and the user picks one). An unknown reference, a sale already cancelled, or an amount
/// over the sale's fails once the card is read.
extension TerminalApp {
    func startCancel(_ request: RequestURL, callback: String) {
        var amount: Int?
        if let text = request.value("amount"), !text.isEmpty {
            guard let value = RequestValidation.cents(text), value > 0 else {
                cancelFailed(callback: callback, message: .invalid("Amount must be an integer larger than zero."))
                return
            }
            amount = value
        }
        let work = CancelWork(
            amount: amount, reference: nonEmpty(request.value("referenceNumber")),
            orderCode: nonEmpty(request.value("orderCode")), shortOrderCode: nonEmpty(request.value("shortOrderCode")))
        begin(.cancel(work), callback: callback, screens: ScreenRequest.count(request), in: .cardPresentment)
    }

    /// The sale a cancel reverses once the card is read: the one its reference names, or the latest.
    private func cancelTarget(_ work: CancelWork) -> Int? {
        guard work.reference != nil || work.orderCode != nil || work.shortOrderCode != nil else {
            return book.latestCancellableSale()
        }
        return book.approvedSale(
            reference: work.reference, orderCode: work.orderCode, shortOrderCode: work.shortOrderCode)
    }

    /// The cancel's current phase ended.
    func cancelStep(_ activity: Activity) {
        guard case .cancel(let work) = activity.work else { return }
        switch activity.phase {
        case .cardPresentment:
            guard let target = cancelTarget(work) else {
                cancelFailed(callback: activity.callback, message: .cancelNotFound, amount: work.amount)
                finish()
                return
            }
            if let failure = check(target: target, amount: work.amount) {
                cancelFailed(
                    callback: activity.callback, message: failure, amount: work.amount, sale: book.record(at: target))
                finish()
                return
            }
            var found = work
            found.target = target
            current!.work = .cancel(found)
            enter(.host)
        case .host:
            guard let target = work.target, var sale = book.record(at: target) else {
                cancelFailed(callback: activity.callback, message: .cancelNotFound, amount: work.amount)
                finish()
                return
            }
            let amount = work.amount ?? sale.amount
            sale.cancelled = true
            book.replace(at: target, with: sale)
            effects.append(.updated(index: target, sale))
            let date = transactionDate()
            let transactionId = random.uuid()
            // As Viva's example: `amount=1200 &cardType=VISA` (and ` 16016684` for the TID in its table).
            var url = builder(activity.callback)
            url.add("status", "success")
            url.add("message", dialect.text(.approved))
            url.add("action", "cancel")
            url.add("amount", amount, quirk: .spaceAfterValue)
            url.add("cardType", ifPresent: sale.cardType)
            url.add("accountNumber", ifPresent: sale.accountNumber)
            url.add("tid", terminalId, quirk: platform == .ios ? .spaceBeforeValue : .none)
            url.add("transactionDate", date)
            url.add("transactionId", transactionId)
            let written = url.url
            returnToCaller(
                written,
                recording: SimulatedTransaction(
                    kind: .cancel, outcome: .approved, amount: amount, clientTransactionId: sale.clientTransactionId,
                    transactionId: transactionId, transactionDate: date, accountNumber: sale.accountNumber,
                    cardType: sale.cardType, verificationMethod: sale.verificationMethod,
                    cancelledReferenceNumber: sale.referenceNumber, callbackURL: written))
        case .idle, .screens:
            break
        }
    }

    private func check(target: Int, amount: Int?) -> Dialect.Message? {
        guard let sale = book.record(at: target) else { return .cancelNotFound }
        if sale.cancelled { return .alreadyCancelled }
        if let amount, amount > sale.amount { return .invalid("Amount exceeds the original transaction.") }
        return nil
    }

    /// A failed cancel: as Viva's example, `amount=1200& cardType=VISA&…` when the sale is known.
    private func cancelFailed(
        callback: String, message: Dialect.Message, amount: Int? = nil, sale: SimulatedTransaction? = nil
    ) {
        var url = builder(callback)
        url.add("status", dialect.failed)
        url.add("message", dialect.text(message))
        url.add("action", "cancel")
        if let amount = amount ?? sale?.amount { url.add("amount", amount) }
        if let sale {
            url.add("cardType", ifPresent: sale.cardType, quirk: .spaceBeforeName)
            url.add("accountNumber", ifPresent: sale.accountNumber)
            url.add("tid", terminalId)
            url.add("transactionDate", ifPresent: sale.transactionDate)
        }
        emit(url.url)
    }

    private func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
