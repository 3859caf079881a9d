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
}
