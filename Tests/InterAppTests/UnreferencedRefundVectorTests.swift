import InterApp
import Testing

/// Vectors from Viva's "Unreferenced Refund" pages (iOS and Android).
@Suite("Unreferenced refund vectors (v1.1)")
struct UnreferencedRefundVectorTests {
    @Test(
        "the amount, the flags, the command's id as clientTransactionId, on both platforms",
        arguments: [
            Platform.ios, .android,
        ])
    func url(platform: Platform) throws {
        let terminal = try Fixture.terminal(
            #"{"id":"ur-1","lane":"l","action":"unreferenced_refund","amount":500,"show_transaction_result":true}"#)
        let lane = platform == .ios ? Fixture.iosLane : Fixture.androidLane
        let url = RequestURL.build(terminal, lane: lane)
        #expect(
            url.hasPrefix(
                "vivapayclient://pay/v1?merchantKey=SG23323424EXS3&appId=com.example.pos&action=unreferenced_refund"
                    + "&amount=500&show_transaction_result=true&clientTransactionId=ur-1&callback="))
        #expect(throws: Never.self) { try terminal.check(platform: platform) }
        #expect(!TerminalAction.unreferencedRefund.spec.abortable)
    }

    @Test(
        "the sale's amount rule; no tip, no show_rating, no reference to a sale",
        arguments: [
            ("", RejectionCode.missingField), (#","amount":0"#, .invalidValue), (#","amount":"5""#, .invalidValue),
            (#","amount":5,"tipAmount":1"#, .unknownField), (#","amount":5,"referenceNumber":"1""#, .unknownField),
            (#","amount":5,"show_rating":true"#, .unknownField),
        ])
    func rules(fields: String, code: RejectionCode) {
        #expect(
            Fixture.rejection(#"{"id":"u","lane":"l","action":"unreferenced_refund"\#(fields)}"#)?.code == code,
            "\(fields)")
    }

    @Test("the answer is named unreferenced_refund in either dialect")
    func callback() throws {
        for url in [
            "interapp-callback://result?status=success&action=unreferenced_refund&amount=500&clientTransactionId=ur-1",
            "mycallbackscheme://result?status=fail&message=(-6) TRANSACTION_DECLINED&action=UNREFERENCED_REFUND",
        ] {
            #expect(try Fixture.callback(url).kind == .transaction(.unreferencedRefund))
        }
    }
}
