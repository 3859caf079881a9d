/// Aborts, in each platform's dialect (docs/SIMULATOR.md; Viva's pages in docs/PROTOCOL.md §9, "Viva fidelity").
///
/// - Idle: iOS `action=abort&status=success&message=nothing to abort`; Android
///   `status=fail&message=(-55) NOTHING_TO_ABORT&action=ABORT`.
/// - During card presentment: the transaction stops. iOS `action=abort&status=success&message=aborted`;
///   Android `status=fail&message=(-57) ABORTED&action=ABORT&amount=…&tipAmount=…`. With
///   ``LaneBehaviour/saleCallbackAfterAbort`` the sale's own failure callback follows.
/// - Once the card is read (host phase): no abort response at all; the transaction completes as usual.
extension TerminalApp {
    func abort(callback: String) {
        // Viva's abort pages name the sale (and the samples the cancel): a pre-authorisation or an
        // unreferenced refund is not stopped.
        var abortable = true
        if case .sale(let sale, _)? = current?.work, sale.kind != .sale { abortable = false }
        guard let activity = current, abortable else {
            var url = builder(callback)
            if platform == .ios {
                url.add("action", dialect.abortAction)
                url.add("status", dialect.nothingToAbortStatus)
                url.add("message", dialect.text(.nothingToAbort))
            } else {
                url.add("status", dialect.nothingToAbortStatus)
                url.add("message", dialect.text(.nothingToAbort))
                url.add("action", dialect.abortAction)
            }
            emit(url.url)
            return
        }
        guard activity.phase == .cardPresentment else {
            logger.debug("abort after the card was read: no answer", metadata: ["lane": "\(lane)"])
            return
        }
        var amount = 0
        var tip = 0
        if case .sale(let sale, _) = activity.work {
            amount = sale.amount
            tip = sale.tipAmount
        } else if case .cancel(let work) = activity.work {
            amount = work.amount ?? 0
        }
        var url = builder(callback)
        if platform == .ios {
            url.add("action", dialect.abortAction)
            url.add("status", dialect.abortedStatus)
            url.add("message", dialect.text(.aborted))
        } else {
            url.add("status", dialect.abortedStatus)
            url.add("message", dialect.text(.aborted))
            url.add("action", dialect.abortAction)
            url.add("amount", amount)
            url.add("tipAmount", tip)
        }
        emit(url.url)
        switch activity.work {
        case .sale(let sale, _):
            endSaleWithoutCard(
                sale, callback: activity.callback, outcome: .aborted, sendCallback: behaviour.saleCallbackAfterAbort)
        case .cancel:
            finish()
        }
    }
}
