/// Sales and pre-authorisations (v1.1, `action=pre_auth`: the same flow, answered as `pre_auth`): validation,
/// card presentment, host, outcome and callback.
extension TerminalApp {
    func startSale(_ request: RequestURL, callback: String, kind: SimulatedTransaction.Kind = .sale) {
        switch RequestValidation.sale(request) {
        case .failure(let failure):
            var url = builder(callback)
            url.add("status", dialect.failed)
            url.add("message", dialect.text(.invalid(failure.reason)))
            url.add("action", kind.rawValue)
            url.add("clientTransactionId", ifPresent: request.value("clientTransactionId"))
            url.add("amount", ifPresent: request.value("amount"))
            url.add("tipAmount", ifPresent: request.value("tipAmount"))
            emit(url.url)
        case .success(var sale):
            sale.kind = kind
            let outcome: ScriptedOutcome =
                if !behaviour.script.isEmpty {
                    behaviour.script.removeFirst()
                } else if let ending = behaviour.unansweredAmountEnding, sale.amount % 100 == ending {
                    .approveUnanswered
                } else {
                    OutcomeRule.outcome(forAmount: sale.amount)
                }
            begin(
                .sale(sale, outcome: outcome), callback: callback, screens: ScreenRequest.count(request),
                in: .cardPresentment)
        }
    }

    /// The sale's current phase ended.
    func saleStep(_ activity: Activity) {
        guard case .sale(let sale, let outcome) = activity.work else { return }
        switch activity.phase {
        case .cardPresentment:
            if outcome == .cardholderCancel {
                endSaleWithoutCard(sale, callback: activity.callback, outcome: .cardholderCancelled)
                return
            }
            current!.card = CardProfile.all[random.below(CardProfile.all.count)]
            let methods = CardProfile.verificationMethods(for: platform)
            current!.verificationMethod = methods[random.below(methods.count)]
            enter(.host)
        case .host:
            completeSale(sale, outcome: outcome, activity: current!)
        case .idle, .screens:
            break
        }
    }

    /// Ends a sale that never read a card: cancelled by the cardholder, or aborted.
    func endSaleWithoutCard(
        _ sale: SaleRequest, callback: String, outcome: SimulatedTransaction.Outcome, sendCallback: Bool = true
    ) {
        var callbackURL: String?
        if sendCallback {
            var url = builder(callback)
            url.add("status", dialect.failed)
            url.add("message", dialect.text(outcome == .aborted ? .saleAborted : .cardholderCancelled))
            url.add("action", sale.kind.rawValue)
            url.add("clientTransactionId", ifPresent: sale.clientTransactionId)
            url.add("amount", sale.amount)
            url.add("tipAmount", sale.tipAmount)
            let written = url.url
            callbackURL = written
            emit(written)
        }
        record(
            SimulatedTransaction(
                kind: sale.kind, outcome: outcome, amount: sale.amount, tipAmount: sale.tipAmount,
                clientTransactionId: sale.clientTransactionId, callbackURL: callbackURL))
        finish()
    }

    private func completeSale(_ sale: SaleRequest, outcome: ScriptedOutcome, activity: Activity) {
        let card = activity.card ?? CardProfile.all[0]
        let method = activity.verificationMethod ?? "CONTACTLESS"
        var record = SimulatedTransaction(
            kind: sale.kind, outcome: .approved, amount: sale.amount, tipAmount: sale.tipAmount,
            clientTransactionId: sale.clientTransactionId, transactionDate: transactionDate(),
            accountNumber: card.accountNumber, cardType: card.cardType, verificationMethod: method)
        var url = builder(activity.callback)
        switch outcome {
        case .approve, .approveUnanswered, .cardholderCancel:
            let reference = nextReferenceNumber()
            let orderCode = random.digits(16, leadingNonZero: true)
            record.referenceNumber = reference
            record.rrn = random.digits(6) + reference
            record.authorisationCode = random.digits(6)
            record.orderCode = orderCode
            record.shortOrderCode = String(orderCode.prefix(10))
            record.transactionId = random.uuid()
            record.installments = installments(for: sale)
            url.add("status", "success")
            url.add("message", dialect.text(.approved))
            url.add("action", sale.kind.rawValue)
            url.add("clientTransactionId", ifPresent: sale.clientTransactionId)
            url.add("amount", sale.amount)
            url.add("tipAmount", sale.tipAmount)
            url.add("verificationMethod", method)
            url.add("rrn", record.rrn!)
            url.add("cardType", card.cardType)
            url.add("accountNumber", card.accountNumber)
            url.add("referenceNumber", reference)
            url.add("authorisationCode", record.authorisationCode!)
            url.add("tid", terminalId)
            url.add("orderCode", orderCode)
            url.add("shortOrderCode", record.shortOrderCode!)
            if let installments = record.installments { url.add("installments", installments) }
            if platform == .android { url.add("aid", card.aid) }
            url.add("transactionDate", record.transactionDate!)
            url.add("transactionId", record.transactionId!)
        case .decline:
            // As Viva's example of a declined sale: no STAN, no authorisation code, `& accountNumber=`.
            let orderCode = random.digits(16, leadingNonZero: true)
            record.outcome = .declined
            record.rrn = random.digits(12)
            record.orderCode = orderCode
            record.shortOrderCode = String(orderCode.prefix(10))
            url.add("status", dialect.failed)
            url.add("message", dialect.text(.declined))
            url.add("action", sale.kind.rawValue)
            url.add("clientTransactionId", ifPresent: sale.clientTransactionId)
            url.add("amount", sale.amount)
            url.add("tipAmount", sale.tipAmount)
            url.add("verificationMethod", method)
            url.add("rrn", record.rrn!)
            url.add("cardType", card.cardType)
            url.add("accountNumber", card.accountNumber, quirk: .spaceBeforeName)
            url.add("referenceNumber", "")
            url.add("authorisationCode", "")
            url.add("tid", terminalId)
            url.add("orderCode", orderCode)
            url.add("transactionDate", record.transactionDate!)
        case .hostError:
            record.outcome = .hostError
            url.add("status", dialect.failed)
            url.add("message", dialect.text(.hostError))
            url.add("action", sale.kind.rawValue)
            url.add("clientTransactionId", ifPresent: sale.clientTransactionId)
            url.add("amount", sale.amount)
            url.add("tipAmount", sale.tipAmount)
            url.add("verificationMethod", method)
            url.add("cardType", card.cardType)
            url.add("accountNumber", card.accountNumber)
            url.add("referenceNumber", "")
            url.add("authorisationCode", "")
            url.add("tid", terminalId)
            url.add("transactionDate", record.transactionDate!)
        }
        if outcome == .approveUnanswered {
            self.record(record)
            finish()
            return
        }
        let written = url.url
        record.callbackURL = written
        returnToCaller(written, recording: record)
    }

    /// The installments the sale ends with: the preferred number when it is within 2…36, otherwise the
    /// number the (simulated) cardholder picks on the prompt; nil without `withInstallments=true`.
    private func installments(for sale: SaleRequest) -> Int? {
        guard sale.withInstallments else { return nil }
        if let preferred = sale.preferredInstallments, (2...36).contains(preferred) { return preferred }
        return 2 + random.below(11)
    }
}
