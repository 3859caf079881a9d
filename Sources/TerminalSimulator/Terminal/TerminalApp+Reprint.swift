/// Reprint (v1.1): the receipt of an earlier transaction printed again, as Viva's "Reprint request" pages
/// describe it. iOS takes `action=reprintTransaction`, Android `action=print&command=reprint`; both take an
/// optional `orderCode` (Android: 16 digits above zero) and print the last transaction without one.
///
/// The answer echoes the request's spelling: iOS `action=reprintTransaction&orderCode=…&status=success&
/// message=Printing Success`, Android `action=print&command=reprint&message=Printing successful&orderCode=…&
/// status=success`. A transaction the app does not have (or none at all) is the app's failure answer,
/// `Transaction not found.` in the dialect's words. Nothing is recorded: no money moves.
extension TerminalApp {
    func reprint(_ request: RequestURL, callback: String, action: String) {
        let command = request.value("command")
        if platform == .android, command != "reprint" {
            fail(callback: callback, action: action, message: .invalid("command must be reprint."))
            return
        }
        let orderCode = request.value("orderCode").flatMap { $0.isEmpty ? nil : $0 }
        if platform == .android, let orderCode,
            orderCode.utf8.count != 16 || !orderCode.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
                || orderCode.utf8.allSatisfy({ $0 == 0x30 })
        {
            fail(callback: callback, action: action, message: .invalid("orderCode must be 16 digits above zero."))
            return
        }
        let found = book.latestPrintable(orderCode: orderCode)
        var url = builder(callback)
        url.add("action", action)
        url.add("command", ifPresent: command)
        url.add("orderCode", ifPresent: found?.orderCode ?? orderCode)
        url.add("status", found == nil ? dialect.failed : "success")
        url.add("message", dialect.text(found == nil ? .nothingToPrint : .printed))
        emit(url.url)
    }
}
