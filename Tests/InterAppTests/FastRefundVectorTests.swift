import InterApp
import Testing

/// Vectors from Viva's Android "Fast Refund request" page (the action has no iOS page).
@Suite("Fast refund vectors (v1.1, Android only)")
struct FastRefundVectorTests {
    @Test("Android: send_money_fast_refund with the amount, the STAN, the id as clientTransactionId")
    func android() throws {
        let terminal = try Fixture.terminal(
            #"{"id":"fr-1","lane":"l","action":"fast_refund","amount":500,"referenceNumber":"833121","show_receipt":false}"#
        )
        #expect(
            RequestURL.build(terminal, lane: Fixture.androidLane)
                == "vivapayclient://pay/v1?merchantKey=SG23323424EXS3&appId=com.example.pos"
                + "&action=send_money_fast_refund&amount=500&referenceNumber=833121&show_receipt=false"
                + "&clientTransactionId=fr-1&protocol=int_default&callback=mycallbackscheme%3A%2F%2Fresult")
        #expect(throws: Never.self) { try terminal.check(platform: .android) }
        #expect(!TerminalAction.fastRefund.spec.abortable)
        #expect(TerminalAction.fastRefund.spec.refund?.key == "fast")
    }

    @Test("iOS: unsupported_on_platform, naming android")
    func ios() throws {
        let terminal = try Fixture.terminal(#"{"id":"fr-1","lane":"l","action":"fast_refund","amount":500}"#)
        do {
            try terminal.check(platform: .ios)
            Issue.record("accepted on iOS")
        } catch {
            #expect(error.code == .unsupportedOnPlatform)
            #expect(error.platforms == [.android])
        }
    }

    @Test(
        "the sale's amount rule; the STAN is digits; no tip, no installments",
        arguments: [
            ("", RejectionCode.missingField), (#","amount":0"#, .invalidValue), (#","amount":"5""#, .invalidValue),
            (#","amount":5,"referenceNumber":"12a""#, .invalidValue), (#","amount":5,"tipAmount":1"#, .unknownField),
            (#","amount":5,"withInstallments":true"#, .unknownField),
        ])
    func rules(fields: String, code: RejectionCode) {
        #expect(
            Fixture.rejection(#"{"id":"f","lane":"l","action":"fast_refund"\#(fields)}"#)?.code == code, "\(fields)")
    }

    @Test("the answer, named send_money_fast_refund in the request's spelling, is a fast_refund's")
    func callback() throws {
        for url in [
            "mycallbackscheme://result?status=success&message=Transaction successful&action=send_money_fast_refund"
                + "&amount=500&clientTransactionId=fr-1",
            "mycallbackscheme://result?status=fail&message=(-6) TRANSACTION_DECLINED&action=SEND_MONEY_FAST_REFUND",
        ] {
            #expect(try Fixture.callback(url).kind == .transaction(.fastRefund))
        }
    }
}
