/// The action table of contract v1.
///
/// Decisions where the contract is silent (also recorded in docs/PROTOCOL.md):
/// - Strings are non-empty (omit a key rather than send `""`) and bounded: identifiers 256, descriptions and
///   transaction ids 2048 UTF-16 code units (Viva's `clientTransactionId` limit).
/// - `ISV_amount` is 0 to `amount`: a fee cannot exceed the sale.
/// - `cancel`'s `amount` is an integer 1 to 2147483647 like a sale's; `referenceNumber` (STAN), `orderCode`
///   and `shortOrderCode` are strings of digits, so leading zeros and 16-digit codes survive.
/// - `txnDateFrom`/`txnDateTo` are ISO 8601 date strings passed verbatim; their order is not checked.
/// - `paymentMethod` is free text (`CardPresent`, `MOTO`, `QrDefault`, ...): Viva adds methods.
/// - `transactionDetails` exists only on Android; a command for an iOS lane is `unsupported_on_platform` (v1.1;
///   `unknown_action` in v1).
/// - v1.1: a cancel takes the `show_*` flags and gets `protocol=int_default` as a sale does (Viva's samples
///   send them on every cancel); a tip above 0 with `withInstallments: true` is `invalid_combination` (Viva's iOS
///   sample refuses it); a sale takes `ISV_currencyCode` (ISO 4217 numeric: up to 3 digits, in the `ISV_`
///   group), `saleToAcquirerData` and the Greek fiscal fields (`aadeProviderId`, `aadeProviderSignatureData`,
///   `aadeProviderSignature`, `fiscalisationData`) as bounded text, passed through encoded.
extension ActionSpec {
    static let maxAmount = 2_147_483_647

    /// The `show_*` flags: the screens the app shows after the host answers (result, receipt, rating),
    /// taken by every action that moves money or looks up a transaction.
    static let resultScreens: [ParameterSpec] = [
        .optional("show_receipt", .flag),
        .optional("show_rating", .flag),
        .optional("show_transaction_result", .flag),
    ]

    /// (v1.3, cloud lanes only) The earlier transaction named by the `id` of the bridge's own command that made
    /// it, in the bridge's journal (`cancel`, `capture_pre_auth`): the session a cloud lane refunds or captures.
    /// A relay lane refuses it (`unsupported_on_transport`): its app names a transaction by the fields below.
    static let parentCommand: ParameterSpec = .optional(TerminalCommand.parentIdName, .text(maxLength: 128))

    /// How an earlier transaction is named besides its `referenceNumber`: by order code, or searched in a
    /// date range (`cancel`, `capture_pre_auth`).
    static let transactionSearch: [ParameterSpec] = [
        .optional("orderCode", .digits(maxLength: 32)),
        .optional("shortOrderCode", .digits(maxLength: 32)),
        .optional("txnDateFrom", .date),
        .optional("txnDateTo", .date),
    ]

    /// `sale`: take a payment of `amount` cents.
    public static let sale = ActionSpec(
        action: .sale,
        parameters: [
            .required("amount", .integer(1...maxAmount), unit: "cents"),
            .optional("tipAmount", .integer(0...maxAmount), unit: "cents"),
            .optional("clientTransactionId", .text(maxLength: 2048)),
            .optional("withInstallments", .flag),
            .optional("preferredInstallments", .integer(0...99)),
        ] + resultScreens + [
            .optional("paymentMethod", .text(maxLength: 64)),
            .optional("ISV_amount", .integer(0...maxAmount), unit: "cents"),
            .optional("ISV_clientId", .text(maxLength: 256)),
            .optional("ISV_clientSecret", .text(maxLength: 256)),
            .optional("ISV_sourceCode", .text(maxLength: 256)),
            .optional("ISV_merchantId", .text(maxLength: 256)),
            .optional("ISV_merchantSourceCode", .text(maxLength: 256)),
            .optional("ISV_customerTrns", .text(maxLength: 2048)),
            .optional("ISV_clientTransactionId", .text(maxLength: 2048)),
            .optional("ISV_currencyCode", .digits(maxLength: 3)),
            .optional("saleToAcquirerData", .text(maxLength: 2048)),
            .optional("aadeProviderId", .text(maxLength: 256)),
            .optional("aadeProviderSignatureData", .text(maxLength: 2048)),
            .optional("aadeProviderSignature", .text(maxLength: 2048)),
            .optional("fiscalisationData", .text(maxLength: 8192)),
        ],
        rules: [
            .notAbove("tipAmount", limit: "amount"),
            .requiredWhenTrue("preferredInstallments", flag: "withInstallments"),
            .onlyWhenTrue("preferredInstallments", flag: "withInstallments"),
            .prefixRequires("ISV_", names: ["ISV_clientId", "ISV_clientSecret", "ISV_amount"]),
            .notAbove("ISV_amount", limit: "amount"),
            .zeroWhenTrue("tipAmount", flag: "withInstallments"),
        ],
        request: RequestForm(action: "sale", trailing: [Parameter("protocol", "int_default")]),
        fillsClientTransactionId: true
    )

    /// `cancel`: cancel an earlier transaction; without `referenceNumber` the app lists the card's last ones.
    public static let cancel = ActionSpec(
        action: .cancel,
        parameters: [
            .optional("referenceNumber", .digits(maxLength: 12)),
            .optional("amount", .integer(1...maxAmount), unit: "cents"),
        ] + transactionSearch + resultScreens + [parentCommand],
        request: RequestForm(action: "cancel", trailing: [Parameter("protocol", "int_default")])
    )

    /// `abort`: stop the sale under way; takes no parameters.
    public static let abort = ActionSpec(action: .abort, request: RequestForm(action: "abort"))

    /// `batch`: open or close a batch; `batchId` only closes.
    public static let batch = ActionSpec(
        action: .batch,
        parameters: [
            .required("command", .oneOf(["open", "close"])),
            .optional("batchName", .text(maxLength: 256)),
            .optional("batchId", .uuid),
        ],
        rules: [.onlyWhen("batchId", key: "command", equals: "close")],
        request: RequestForm(action: "batch")
    )

    /// `transactionDetails`: look up a sale by its `clientTransactionId` (Android only).
    public static let transactionDetails = ActionSpec(
        action: .transactionDetails,
        parameters: [
            .required("clientTransactionId", .text(maxLength: 2048)),
            .optional("sourceTerminalId", .text(maxLength: 256)),
        ],
        request: RequestForm(action: "transactionDetails"),
        platforms: [.android]
    )
}
