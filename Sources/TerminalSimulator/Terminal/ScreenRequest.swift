/// The screens a sale or cancel asks the app to show before it returns to the caller, as Viva's sale page
/// describes the flags: `show_transaction_result` shows the result screen, `show_receipt` the receipt and
/// the result screen with it (the result flag is then moot), `show_rating` the rating screen. Absent or
/// any value but `true` (any case) shows nothing. `paymentMethod` is accepted and shows nothing.
enum ScreenRequest {
    /// How many screens `request` asks for: 0 to 3.
    static func count(_ request: RequestURL) -> Int {
        func on(_ name: String) -> Bool { request.value(name)?.lowercased() == "true" }
        let receipt = on("show_receipt")
        let result = receipt || on("show_transaction_result")
        return (result ? 1 : 0) + (receipt ? 1 : 0) + (on("show_rating") ? 1 : 0)
    }
}
