/// Transaction details (Android only): a sale looked up in the app's history by `clientTransactionId`.
///
/// Sales the host answered are found, approved or declined: Viva's Android "Transaction Details" page says
/// the answer describes declined transactions too, so its `status` tells whether the look-up worked, not
/// whether the sale was approved. The answer is
/// `status=success&message=Transaction Details Fetched&action=transactionDetails&clientTransactionId=…&amount=…`
/// followed by the sale's other fields; a declined sale's `referenceNumber` and `authorisationCode` are
/// empty, as in Viva's own decline example. `sourceTerminalId`, when given, must be this terminal's TID.
extension TerminalApp {
    func transactionDetails(_ request: RequestURL, callback: String) {
        guard let clientTransactionId = request.value("clientTransactionId"), !clientTransactionId.isEmpty else {
            fail(
                callback: callback, action: "transactionDetails",
                message: .invalid("clientTransactionId must not be empty."))
            return
        }
        let source = request.value("sourceTerminalId").flatMap { $0.isEmpty ? nil : $0 }
        guard source == nil || source == terminalId,
            let index = book.hostSale(clientTransactionId: clientTransactionId),
            let sale = book.record(at: index)
        else {
            var url = builder(callback)
            url.add("status", dialect.failed)
            url.add("message", dialect.text(.detailsNotFound))
            url.add("action", "transactionDetails")
            url.add("clientTransactionId", clientTransactionId)
            emit(url.url)
            return
        }
        var url = builder(callback)
        url.add("status", "success")
        url.add("message", dialect.text(.detailsFetched))
        url.add("action", "transactionDetails")
        url.add("clientTransactionId", clientTransactionId)
        url.add("amount", sale.amount)
        url.add("tipAmount", sale.tipAmount)
        url.add("verificationMethod", ifPresent: sale.verificationMethod)
        url.add("rrn", ifPresent: sale.rrn)
        url.add("cardType", ifPresent: sale.cardType)
        url.add("accountNumber", ifPresent: sale.accountNumber)
        url.add("referenceNumber", sale.referenceNumber ?? "")
        url.add("authorisationCode", sale.authorisationCode ?? "")
        url.add("tid", terminalId)
        url.add("orderCode", ifPresent: sale.orderCode)
        url.add("shortOrderCode", ifPresent: sale.shortOrderCode)
        if let installments = sale.installments { url.add("installments", installments) }
        url.add("transactionDate", ifPresent: sale.transactionDate)
        url.add("transactionId", ifPresent: sale.transactionId)
        emit(url.url)
    }
}
