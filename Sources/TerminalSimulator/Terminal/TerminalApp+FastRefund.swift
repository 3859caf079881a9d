/// Fast refunds (v1.1, Android only: `action=send_money_fast_refund`): money sent back to the card of an earlier
/// payment. A `referenceNumber` must name an approved sale the app made ("Transaction not found." otherwise,
/// before any card); then it runs as a sale (card presentment, declines by amount) and answers with the
/// request's action.
extension TerminalApp {
    func fastRefund(_ request: RequestURL, callback: String) {
        if let reference = request.value("referenceNumber"), !reference.isEmpty,
            book.approvedSale(reference: reference, orderCode: nil, shortOrderCode: nil) == nil
        {
            var url = builder(callback)
            url.add("status", dialect.failed)
            url.add("message", dialect.text(.cancelNotFound))
            url.add("action", SimulatedTransaction.Kind.fastRefund.rawValue)
            url.add("clientTransactionId", ifPresent: request.value("clientTransactionId"))
            url.add("amount", ifPresent: request.value("amount"))
            emit(url.url)
            return
        }
        startSale(request, callback: callback, kind: .fastRefund)
    }
}
