import Foundation
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

    /// Track data in the shapes cards and readers give it (issue 32, item 5): track 1 and track 2, with
    /// and without sentinels, the chip's track 2 equivalent, and a track 2 whose PAN was masked already.
    static let tracks = [
        ";4222222222222222=25121010000?", "4222222222222222=25121010000",
        "%B4222222222222222^DOE/JOHN^2512101773311000000000000?", "B4222222222222222^DOE/JOHN^2512101773311",
        "4222222222222222D25121010000F", "422222******2222=25121010000",
    ]

    @Test("track data in any field keeps nothing but the masked card number", arguments: tracks)
    func trackDataInAnyField(track: String) throws {
        let encoded = try #require(track.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        // Named and unknown fields, a card-number field, an identifier field, the cardholder's name, the message.
        let fields = ["track2", "track1Data", "accountNumber", "merchantReceiptPAN", "rrn", "emvTag57", "note"]
        let callback = try CallbackParser.parse(
            "interapp-callback://result?status=failure&action=sale&message=read%20\(encoded)%20refused&"
                + fields.map { "\($0)=\(encoded)" }.joined(separator: "&"))
        for field in fields {
            #expect(callback.result[field]?.stringValue == "422222******2222", "\(field)")
        }
        // A track 1 without its end sentinel runs to the end of the text: what follows it is cut too.
        #expect(callback.message.hasPrefix("read 422222******2222"), "\(callback.message)")
        Self.expectNoTrackData(callback)
    }

    @Test("track data sent unencoded, or as a bare segment of the query, is cut too")
    func trackDataUnencoded() throws {
        let callback = try CallbackParser.parse(
            "interapp-callback://result?status=success&action=sale&track1=%B4222222222222222^DOE/JOHN^2512101773311?"
                + "&track2=;4222222222222222=25121010000?&;4222222222222222=25121010000?"
                + "&422222******2222=25121010000&amount=100")
        #expect(callback.result["track1"]?.stringValue == "422222******2222")
        #expect(callback.result["track2"]?.stringValue == "422222******2222")
        #expect(callback.result["amount"]?.intValue == 100)
        Self.expectNoTrackData(callback)
    }

    @Test(
        "cutTrackData: each track cut to its masked PAN, the text around it kept; other text unchanged",
        arguments: [
            (";4222222222222222=25121010000?", "422222******2222"),
            ("4222222222222222=25121010000", "422222******2222"),
            ("%B4222222222222222^DOE/JOHN^2512101773311?", "422222******2222"),
            ("%B4222222222222222^DOE/JOHN^2512101773311", "422222******2222"),
            ("4222222222222222D25121010000FFF", "422222******2222"),
            ("422222******2222=25121010000", "422222******2222"),
            ("422222XXXXXX2222=25121010000", "422222XXXXXX2222"),
            ("%3B4222222222222222%3D25121010000%3F", "422222******2222"),
            ("%25B4222222222222222%5EDOE%2FJOHN%5E2512101773311%3F&next=1", "422222******2222&next=1"),
            (
                "card ;4222222222222222=25121010000? and ;5555555555554444=2612? read",
                "card 422222******2222 and 555555******4444 read"
            ),
            ("479275123456=2512", "479275**3456"),
            // A PAN is a whole run: 20 characters are none, even when their last 16 would be (the fuzzer's
            // case: the Luhn masking must never make a track of what the cut left).
            (
                "925611*****0020-09-****6789********8901d56110059000",
                "925611*****0020-09-****6789********8901d56110059000"
            ),
            ("12346789123456788901=2512", "12346789123456788901=2512"),
            // What a cut leaves is looked at again.
            ("4222222222222222=4222222222222222=2512", "422222******2222"),
            // Not track data: no separator, too few digits, or no expiry after D.
            ("4222222222222222", "4222222222222222"), ("42222222222=25121010000", "42222222222=25121010000"),
            ("4222222222222222D25", "4222222222222222D25"), ("orderCode=1234567890123", "orderCode=1234567890123"),
            ("2019-09-13T12:14:19.8703452+03:00", "2019-09-13T12:14:19.8703452+03:00"), ("", ""),
        ])
    func cutTrackData(input: String, expected: String) {
        #expect(Masking.cutTrackData(input) == expected)
    }

    /// Nothing past the masked PAN survives anywhere in `callback`: no expiry, service code, discretionary
    /// data or name, no full card number.
    private static func expectNoTrackData(_ callback: Callback) {
        let everything =
            callback.fields.map { "\($0.name)=\($0.value)" }.joined(separator: "&") + callback.message
            + JSONValue.object(callback.result).serializedString
        for forbidden in ["4222222222222222", "2512", "1010000", "773311", "DOE", "JOHN", "^", "=2", "D25"] {
            #expect(!everything.contains(forbidden), "\(forbidden) survived: \(everything)")
        }
    }

    @Test("the Luhn check itself")
    func luhn() {
        #expect(Masking.maskLuhnRuns("4792751234569999") == "4792751234569999")  // fails Luhn
        #expect(Masking.maskLuhnRuns("5555555555554444") == "555555******4444")
        #expect(Masking.maskLuhnRuns("2019-09-13T12:14:19.8703452+03:00") == "2019-09-13T12:14:19.8703452+03:00")
        #expect(Masking.initials("") == "")
    }
}
