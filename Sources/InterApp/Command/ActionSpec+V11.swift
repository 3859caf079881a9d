/// The actions added in contract v1.1 (issue 15), as Viva's public "Card terminal apps" pages give them
/// (docs/PROTOCOL.md, "The till's other actions", cites each page).
extension ActionSpec {
    /// `reprint`: print the receipt of an earlier transaction again, the one with `orderCode`, or the last one
    /// without it. No money moves, and an abort cannot stop it. iOS spells it `action=reprintTransaction`,
    /// Android `action=print&command=reprint`; Android's page asks for a 16-digit order code above zero, which
    /// both platforms' examples use.
    public static let reprint = ActionSpec(
        action: .reprint,
        parameters: [.optional("orderCode", .fixedDigits(count: 16))],
        request: RequestForm(action: "reprintTransaction"),
        platformRequests: [.android: RequestForm(action: "print", leading: [Parameter("command", "reprint")])],
        abortable: false
    )

    /// `foreground`: bring the Viva Terminal app to the front. Takes no parameters, and the app sends no
    /// answer (both platforms' "Foreground request" pages), so the relay's `opened` is its `success` and its
    /// `not_opened` its `undeliverable`.
    public static let foreground = ActionSpec(
        action: .foreground, request: RequestForm(action: "foreground"), abortable: false, endsWhenOpened: true)

    /// `pre_auth`: authorise `amount` cents on the card without taking them; like a sale (the command's `id`
    /// becomes its `clientTransactionId`), but its result is an authorisation that a `capture_pre_auth` takes
    /// later. Both platforms' "Pre-auth request" pages list `amount`, `clientTransactionId` and the `show_*`
    /// flags; Android's says no tip, installments or ISV parameters with a pre-auth. Not abortable: Viva's
    /// abort pages name the sale only.
    public static let preAuth = ActionSpec(
        action: .preAuth,
        parameters: [
            .required("amount", .integer(1...maxAmount), unit: "cents"),
            .optional("clientTransactionId", .text(maxLength: 2048)),
        ] + resultScreens,
        request: RequestForm(action: "pre_auth"),
        fillsClientTransactionId: true,
        abortable: false
    )

    /// `capture_pre_auth`: take `amount` cents (without it: the whole authorisation) of the pre-authorisation
    /// found by `referenceNumber`, `orderCode` or `shortOrderCode`, or searched between `txnDateFrom` and
    /// `txnDateTo`. Amount optional as on Viva's iOS page and in its Android sample (its Android page marks it
    /// required); the identifiers and dates take the cancel's rules.
    public static let capturePreAuth = ActionSpec(
        action: .capturePreAuth,
        parameters: [
            .optional("amount", .integer(1...maxAmount), unit: "cents"),
            .optional("referenceNumber", .digits(maxLength: 12)),
        ] + transactionSearch + resultScreens + [parentCommand],
        request: RequestForm(action: "capture_pre_auth"),
        abortable: false
    )

    /// `unreferenced_refund`: give `amount` cents back to the presented card with no original sale. Both
    /// platforms' "Unreferenced Refund" pages list `amount` (required on both tables), `clientTransactionId`
    /// (Android) and `show_receipt`, `show_transaction_result`; the command's `id` becomes its
    /// `clientTransactionId`, as for a sale, so that the answer names its command. Not abortable (the abort
    /// pages name the sale). Its successful reply carries `refund: {unreferenced: true, amount}`.
    public static let unreferencedRefund = ActionSpec(
        action: .unreferencedRefund,
        parameters: [
            .required("amount", .integer(1...maxAmount), unit: "cents"),
            .optional("clientTransactionId", .text(maxLength: 2048)),
            .optional("show_receipt", .flag),
            .optional("show_transaction_result", .flag),
        ],
        request: RequestForm(action: "unreferenced_refund"),
        fillsClientTransactionId: true,
        abortable: false,
        refund: RefundMark(key: "unreferenced", note: "money back to a card with no sale")
    )

    /// `fast_refund` (Android only): send `amount` cents back to the card of an earlier Visa, Mastercard or
    /// Maestro payment, which the cardholder's bank credits fast. Viva's Android "Fast Refund request" page spells
    /// it `action=send_money_fast_refund` and lists `clientTransactionId`, `referenceNumber` (the STAN of the
    /// payment; without it the app lets the user pick one of the card's last ones, as a cancel does) and
    /// `amount`; a public Flutter plugin also sends the `show_*` flags and `protocol=int_default`, as a cancel
    /// does. The command's `id` becomes its `clientTransactionId`, so that the answer names its command. Not
    /// abortable (the abort pages name the sale). Its successful reply carries `refund: {fast: true, amount}`.
    public static let fastRefund = ActionSpec(
        action: .fastRefund,
        parameters: [
            .required("amount", .integer(1...maxAmount), unit: "cents"),
            .optional("referenceNumber", .digits(maxLength: 12)),
            .optional("clientTransactionId", .text(maxLength: 2048)),
        ] + resultScreens,
        request: RequestForm(action: "send_money_fast_refund", trailing: [Parameter("protocol", "int_default")]),
        platforms: [.android],
        fillsClientTransactionId: true,
        abortable: false,
        refund: RefundMark(key: "fast", note: "money sent back to a card by fast refund")
    )

    /// `report` (iOS only): the terminal's own totals of a batch, as the reply's `result`. Viva's iOS "Get
    /// Reports" page spells it `action=getReport&command=summary` (the only command it gives; the bridge adds
    /// it) with an optional `batchName` or `batchId`; without them, or when they match no batch, the app
    /// reports the active batch. No money moves; not abortable.
    public static let report = ActionSpec(
        action: .report,
        parameters: [.optional("batchName", .text(maxLength: 256)), .optional("batchId", .uuid)],
        request: RequestForm(action: "getReport", leading: [Parameter("command", "summary")]),
        platforms: [.ios],
        abortable: false
    )
}
