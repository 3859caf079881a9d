import InterApp
import Testing

/// Vectors from Viva's "Pre-auth request" and "Capture Pre-auth request" pages (iOS and Android).
@Suite("Pre-auth and capture vectors (v1.1)")
struct PreAuthVectorTests {
    @Test(
        "pre_auth: the amount, the flags, the command's id as clientTransactionId; no protocol",
        arguments: [
            Platform.ios, .android,
        ])
    func preAuthURL(platform: Platform) throws {
        let terminal = try Fixture.terminal(
            #"{"id":"pa-1","lane":"l","action":"pre_auth","amount":8000,"show_receipt":false}"#)
        let lane = platform == .ios ? Fixture.iosLane : Fixture.androidLane
        let callback = platform == .ios ? "interapp-callback" : "mycallbackscheme%3A%2F%2Fresult"
        #expect(
            RequestURL.build(terminal, lane: lane)
                == "vivapayclient://pay/v1?merchantKey=SG23323424EXS3&appId=com.example.pos&action=pre_auth"
                + "&amount=8000&show_receipt=false&clientTransactionId=pa-1&callback=\(callback)")
        #expect(throws: Never.self) { try terminal.check(platform: platform) }
    }

    @Test(
        "pre_auth takes a sale's amount rules, and no tip, installments or ISV keys (Viva's Android page)",
        arguments: [
            (#""amount":0"#, RejectionCode.invalidValue), (#""amount":"100""#, .invalidValue),
            (#""amount":1.5"#, .invalidValue), (#""amount":2147483648"#, .invalidValue),
            (#""amount":100,"tipAmount":1"#, .unknownField), (#""amount":100,"withInstallments":true"#, .unknownField),
            (#""amount":100,"ISV_amount":1"#, .unknownField), (#""show_receipt":true"#, .missingField),
        ])
    func preAuthRules(fields: String, code: RejectionCode) {
        #expect(Fixture.rejection(#"{"id":"p","lane":"l","action":"pre_auth",\#(fields)}"#)?.code == code, "\(fields)")
    }

    @Test("capture_pre_auth: amount optional, the cancel's identifiers and dates, in the command's order")
    func captureURL() throws {
        let full = try Fixture.terminal(
            #"{"id":"c","lane":"l","action":"capture_pre_auth","orderCode":"1091159196000136","amount":600,"#
                + #""referenceNumber":"833121","shortOrderCode":"1091159196","txnDateFrom":"2026-11-01","#
                + #""txnDateTo":"2026-11-25"}"#)
        #expect(
            RequestURL.build(full, lane: Fixture.iosLane)
                == "vivapayclient://pay/v1?merchantKey=SG23323424EXS3&appId=com.example.pos&action=capture_pre_auth"
                + "&orderCode=1091159196000136&amount=600&referenceNumber=833121&shortOrderCode=1091159196"
                + "&txnDateFrom=2026-11-01&txnDateTo=2026-11-25&callback=interapp-callback")
        let whole = try Fixture.terminal(#"{"id":"c","lane":"l","action":"capture_pre_auth","referenceNumber":"1"}"#)
        #expect(whole.parameters == [Parameter("referenceNumber", "1")], "no amount: the whole authorisation")
        #expect(
            Fixture.rejection(#"{"id":"c","lane":"l","action":"capture_pre_auth","amount":0}"#)?.code == .invalidValue)
        #expect(
            Fixture.rejection(#"{"id":"c","lane":"l","action":"capture_pre_auth","orderCode":"12ab"}"#)?.code
                == .invalidValue)
        #expect(
            Fixture.rejection(#"{"id":"c","lane":"l","action":"capture_pre_auth","clientTransactionId":"x"}"#)?.code
                == .unknownField)
    }

    @Test("answers are named pre_auth and capture_pre_auth, in either dialect")
    func callbacks() throws {
        let authorised = try Fixture.callback(
            "interapp-callback://result?status=success&message=Transaction successful.&action=pre_auth"
                + "&clientTransactionId=pa-1&amount=8000&orderCode=1091159196000136")
        #expect(authorised.kind == .transaction(.preAuth))
        #expect(authorised.baseOutcome == .success)
        #expect(authorised.result["amount"]?.intValue == 8000)
        let declined = try Fixture.callback(
            "mycallbackscheme://result?status=fail&message=(-6) TRANSACTION_DECLINED&action=PRE_AUTH&amount=1051")
        #expect(declined.kind == .transaction(.preAuth))
        #expect(declined.failureReason == .declined)
        let captured = try Fixture.callback(
            "mycallbackscheme://result?status=success&action=capture_pre_auth&amount=600&orderCode=1091159196000136")
        #expect(captured.kind == .transaction(.capturePreAuth))
        #expect(captured.actionName == "capture_pre_auth")
    }
}
