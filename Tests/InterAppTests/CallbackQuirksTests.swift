import InterApp
import Testing

/// The quirks of real callback URLs (VIVA-NOTES.md), one rule per row.
@Suite("Callback quirks")
struct CallbackQuirksTests {
    static let base = "interapp-callback://result?status=success&action=sale"

    @Test(
        "field values as they really arrive",
        arguments: [
            (
                "transactionDate=2019-09-13T12:14:19.8703452+03:00", "transactionDate",
                "2019-09-13T12:14:19.8703452+03:00"
            ),
            ("transactionDate=2019-09-13T12:14:19%2B03:00", "transactionDate", "2019-09-13T12:14:19+03:00"),
            ("tid= 16016684", "tid", "16016684"),
            ("orderCode= 9256110059000200", "orderCode", "9256110059000200"),
            ("cardType=VISA ", "cardType", "VISA"),
            (" cardType = VISA", "cardType", "VISA"),
            ("cardType=Debit Mastercard", "cardType", "Debit Mastercard"),
            ("cardType=Debit%20Mastercard", "cardType", "Debit Mastercard"),
            ("cardType=%20VISA%20", "cardType", "VISA"),
            ("note=100%25", "note", "100%"),
            ("note=%2520", "note", "%20"),
            ("note=%zz%2", "note", "%zz%2"),
            ("note=50%", "note", "50%"),
            ("note=%E9t%E9", "note", "%E9t%E9"),
            ("note=%C3%A9t%C3%A9", "note", "été"),
            ("note=a+b", "note", "a+b"),
            ("note=line one\nline two", "note", "line one\nline two"),
            ("note=%0Aedge%0A", "note", "edge"),
            ("note=a=b=c", "note", "a=b=c"),
            ("note=#hash?x", "note", "#hash?x"),
            ("note=", "note", ""),
            ("note", "note", ""),
            ("accountNumber=479275******9999", "accountNumber", "479275******9999"),
            ("accountNumber=4792751234569999", "accountNumber", "479275******9999"),
            ("accountNumber=4792 7512 3456 9999", "accountNumber", "4792 75** **** 9999"),
            ("accountNumber=%34%37%39%32%37%35%31%32%33%34%35%36%39%39%39%39", "accountNumber", "479275******9999"),
            ("pan=5374890000001831", "pan", "537489******1831"),
            ("ISV_clientSecret=oops", "ISV_clientSecret", "***"),
            ("merchantKey=oops", "merchantKey", "***"),
            ("rrn=123456833121", "rrn", "123456833121"),
            ("clientTransactionId=4792751234569999", "clientTransactionId", "4792751234569999"),
            ("futureField=kept", "futureField", "kept"),
            ("%61mount=5", "amount", "5"),
        ])
    func values(query: String, name: String, expected: String) throws {
        let callback = try Fixture.callback("\(Self.base)&\(query)")
        #expect(callback.field(name) == expected)
    }

    @Test(
        "status spellings",
        arguments: [
            ("success", "success", Outcome.success), ("SUCCESS", "success", .success), ("failed", "failure", .failure),
            ("fail", "failure", .failure), ("FAILURE", "failure", .failure), (" success ", "success", .success),
            ("pending", "pending", .unknown), ("", "", .unknown),
        ])
    func status(raw: String, normalized: String, outcome: Outcome) throws {
        let callback = try Fixture.callback("interapp-callback://result?status=\(raw)&action=sale")
        #expect(callback.status == normalized)
        #expect(callback.baseOutcome == outcome)
    }

    @Test(
        "actions compare ignoring case; unknown ones are kept",
        arguments: [
            ("sale", Callback.Kind.transaction(.sale)), ("SALE", .transaction(.sale)),
            ("Cancel", .transaction(.cancel)),
            ("transactiondetails", .transaction(.transactionDetails)), ("BATCH", .transaction(.batch)),
            ("pre_auth", .transaction(.preAuth)), ("reprintTransaction", .transaction(.reprint)),
            ("PRINT", .transaction(.reprint)), ("getReport", .transaction(.report)),
            ("send_money_fast_refund", .transaction(.fastRefund)),
            ("getPrintingSettings", .other("getPrintingSettings")),
            ("send_money_rebate", .other("send_money_rebate")),
        ])
    func actions(raw: String, kind: Callback.Kind) throws {
        let callback = try Fixture.callback("interapp-callback://result?status=success&action=\(raw)")
        #expect(callback.kind == kind)
    }

    @Test("no action is other(\"\") and reports by status")
    func noAction() throws {
        let callback = try Fixture.callback("interapp-callback://result?status=success&clientTransactionId=x")
        #expect(callback.kind == .other(""))
        #expect(callback.baseOutcome == .success)
        #expect(callback.clientTransactionId == "x")
    }

    @Test(
        "abort messages in both dialects",
        arguments: [
            ("aborted", Callback.AbortAnswer.aborted), ("Aborted.", .aborted), ("ABORTED", .aborted),
            ("(-57) ABORTED", .aborted), ("(-57)", .aborted), ("nothing to abort", .nothingToAbort),
            ("Nothing to abort.", .nothingToAbort), ("NOTHING_TO_ABORT", .nothingToAbort),
            ("(-55) NOTHING_TO_ABORT", .nothingToAbort), ("(-55)%20NOTHING_TO_ABORT", .nothingToAbort),
            ("could not abort", .unrecognized), ("", .unrecognized), ("not aborted", .unrecognized),
        ])
    func abortAnswers(message: String, answer: Callback.AbortAnswer) throws {
        let callback = try Fixture.callback("x://result?status=success&action=abort&message=\(message)")
        #expect(callback.kind == .abort(answer))
        let expected: Outcome =
            switch answer {
            case .aborted: .success
            case .nothingToAbort: .nothingToAbort
            case .unrecognized: .unknown
            }
        #expect(callback.baseOutcome == expected)
    }

    @Test(
        "schemes compare ignoring case; any scheme://host?query is accepted",
        arguments: [
            ("Interapp-Callback://result?status=success", "interapp-callback", "result"),
            ("INTERAPP-CALLBACK://RESULT?status=success", "interapp-callback", "RESULT"),
            ("com.example.pos+v2://result?status=success", "com.example.pos+v2", "result"),
            ("x://?status=success", "x", ""),
            ("mycallbackscheme://result/path?status=success", "mycallbackscheme", "result/path"),
            ("  interapp-callback://result?status=success\n", "interapp-callback", "result"),
        ])
    func schemes(url: String, scheme: String, host: String) throws {
        let callback = try Fixture.callback(url)
        #expect(callback.scheme == scheme)
        #expect(callback.host == host)
    }

    @Test(
        "not callbacks: rejected with a reason",
        arguments: [
            "", "   ", "status=success", "?status=success", "interapp-callback://result",
            "interapp-callback:result?status=success",
            "interapp-callback:/result?status=success", "://result?status=success", "1abc://result?status=success",
            "interapp-callback://result?action=sale&message=x", "interapp-callback://result?",
            "https://example.com/?q=1",
            "interapp-callback://result?status=success&status=failed",
            "interapp-callback://result?status=success&amount=1&amount=2",
            "interapp-callback://result?status=success&clientTransactionId=a&clientTransactionId=b",
            "interapp-callback://result?status=success&action=sale&action=cancel",
            "interapp-callback://result?status=success&%73tatus=failed",
            "interapp-callback://result?status=success&message=a\u{1}b",
            "interapp-callback://res\u{0}ult?status=success",
            "interapp-callback://result?status=success\u{7F}",
        ])
    func notCallbacks(url: String) {
        #expect(throws: CallbackParseError.self) { try CallbackParser.parse(url) }
        do {
            _ = try CallbackParser.parse(url)
        } catch {
            #expect(error.message.hasPrefix("not a callback URL: "))
        }
    }

    @Test("a repeated field with the same value is fine")
    func sameDuplicate() throws {
        let callback = try Fixture.callback("x://r?status=success&status=success&amount=5&amount=5")
        #expect(callback.fields.count == 4)
        #expect(callback.result == ["amount": 5])
    }

    @Test("bytes that are not UTF-8 are rejected; valid bytes parse like the string")
    func bytes() throws {
        var bytes = Array("interapp-callback://result?status=success&message=".utf8)
        #expect(try CallbackParser.parse(bytes + Array("ok".utf8)).message == "ok")
        bytes.append(0xFF)
        #expect(throws: CallbackParseError.self) { try CallbackParser.parse(bytes) }
        let binary: [UInt8] = [0x00, 0x01, 0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        #expect(throws: CallbackParseError.self) { try CallbackParser.parse(binary) }
        let url = CallbackSeedTests.saleSuccess
        #expect(try CallbackParser.parse(Array(url.utf8)) == CallbackParser.parse(url))
    }

    @Test(
        "integers in results: only amounts and installments, only when they parse",
        arguments: [
            ("amount=1200", "amount", JSONValue.number(JSONNumber(1200))),
            ("amount= 1200", "amount", 1200), ("amount=-5", "amount", -5), ("amount=12.00", "amount", "12.00"),
            ("amount=+5", "amount", "+5"), ("amount=", "amount", ""), ("amount=1e3", "amount", "1e3"),
            ("amount=99999999999999999999", "amount", "99999999999999999999"), ("installments= 10", "installments", 10),
            ("preferredInstallments=3", "preferredInstallments", 3), ("ISV_amount=10", "ISV_amount", 10),
            ("tipAmount=0", "tipAmount", 0), ("rrn=123456833121", "rrn", "123456833121"),
            ("tid=16016684", "tid", "16016684"),
        ])
    func typedIntegers(query: String, name: String, expected: JSONValue) throws {
        let callback = try Fixture.callback("x://result?status=success&\(query)")
        #expect(callback.result[name] == expected)
        #expect(callback.result["status"] == nil)
        #expect(callback.result["message"] == nil)
    }
}
