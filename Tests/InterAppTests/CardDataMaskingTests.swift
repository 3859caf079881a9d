import InterApp
import Testing

/// Card data beyond `accountNumber` (issue 12, item 4): the fields Viva's Android sample reads from a
/// callback, and card numbers wherever they turn up.
@Suite("Card data in callbacks: masked, dropped or cut to initials")
struct CardDataMaskingTests {
    private static func result(_ query: String) throws -> JSONObject {
        try CallbackParser.parse("interapp-callback://result?status=success&action=sale&\(query)").result
    }

    @Test(
        "receipt PAN fields are masked like accountNumber", arguments: ["merchantReceiptPAN", "cardholderReceiptPAN"])
    func receiptPANs(field: String) throws {
        let result = try Self.result("\(field)=4792751234569999")
        #expect(result[field]?.stringValue == "479275******9999")
    }

    @Test("the expiry date is dropped and the cardholder's name cut to initials")
    func expiryAndName() throws {
        let result = try Self.result("cardExpirationDate=2712&cardholderName=JOHN%20A%20SMITH&cardType=VISA")
        #expect(result["cardExpirationDate"] == nil)
        #expect(result["cardholderName"]?.stringValue == "J. A. S.")
        #expect(result["cardType"]?.stringValue == "VISA")
    }

    @Test("a Luhn-valid 12-19 digit run is masked in any other field and in the message")
    func luhnRunsAnywhere() throws {
        let callback = try CallbackParser.parse(
            "interapp-callback://result?status=failure&action=sale&message=card%204111111111111111%20refused"
                + "&extraInfo=4111-1111-1111-1111&note=ref%204111111111111112")
        #expect(callback.message == "card 411111******1111 refused")
        #expect(callback.result["extraInfo"]?.stringValue == "4111-11**-****-1111")
        // Not Luhn-valid: not a card number.
        #expect(callback.result["note"]?.stringValue == "ref 4111111111111112")
    }

    @Test("identifiers that happen to pass the Luhn check reach the caller whole")
    func identifiersUntouched() throws {
        // 4111111111111111 passes the Luhn check; as an orderCode it is an order code.
        let result = try Self.result(
            "orderCode=4111111111111111&rrn=411111111116&transactionId=4111111111111111&clientTransactionId=4111111111111111"
        )
        #expect(result["orderCode"]?.stringValue == "4111111111111111")
        #expect(result["rrn"]?.stringValue == "411111111116")
        #expect(result["transactionId"]?.stringValue == "4111111111111111")
        #expect(result["clientTransactionId"]?.stringValue == "4111111111111111")
    }

    @Test("the Luhn check itself")
    func luhn() {
        #expect(Masking.maskLuhnRuns("4792751234569999") == "4792751234569999")  // fails Luhn
        #expect(Masking.maskLuhnRuns("5555555555554444") == "555555******4444")
        #expect(Masking.maskLuhnRuns("2019-09-13T12:14:19.8703452+03:00") == "2019-09-13T12:14:19.8703452+03:00")
        #expect(Masking.initials("") == "")
    }
}
