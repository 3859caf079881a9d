import InterApp
import Testing

/// Vectors from Viva's iOS "Get Reports request" page (the action has no Android page).
@Suite("Report vectors (v1.1, iOS only)")
struct ReportVectorTests {
    @Test("iOS: getReport with command=summary first, then the batch asked for")
    func ios() throws {
        let active = try Fixture.terminal(#"{"id":"rep-1","lane":"l","action":"report"}"#)
        #expect(
            RequestURL.build(active, lane: Fixture.iosLane).hasPrefix(
                "vivapayclient://pay/v1?merchantKey=SG23323424EXS3&appId=com.example.pos&action=getReport"
                    + "&command=summary&callback="))
        let named = try Fixture.terminal(#"{"id":"rep-2","lane":"l","action":"report","batchName":"morningShift"}"#)
        #expect(RequestURL.build(named, lane: Fixture.iosLane).contains("&command=summary&batchName=morningShift&"))
        #expect(throws: Never.self) { try named.check(platform: .ios) }
        #expect(!TerminalAction.report.spec.abortable)
        #expect(TerminalAction.report.spec.refund == nil)
    }

    @Test("Android: unsupported_on_platform, naming ios")
    func android() throws {
        let terminal = try Fixture.terminal(#"{"id":"rep-1","lane":"l","action":"report"}"#)
        do {
            try terminal.check(platform: .android)
            Issue.record("accepted on Android")
        } catch {
            #expect(error.code == .unsupportedOnPlatform)
            #expect(error.platforms == [.ios])
        }
    }

    @Test(
        "batchId is a UUID; command is the bridge's to add; no amount",
        arguments: [
            (#","batchId":"nope""#, RejectionCode.invalidValue), (#","command":"summary""#, .unknownField),
            (#","amount":5"#, .unknownField), (#","batchName":"""#, .invalidValue),
        ])
    func rules(fields: String, code: RejectionCode) {
        #expect(Fixture.rejection(#"{"id":"r","lane":"l","action":"report"\#(fields)}"#)?.code == code, "\(fields)")
    }

    @Test("the answer, named getReport, is a report's; its totals are its result")
    func callback() throws {
        let callback = try Fixture.callback(
            "interapp-callback://result?action=getReport&command=summary&batchName=morningShift"
                + "&status=success&message=Report retrieved&salesCount=2&salesAmount=2400")
        #expect(callback.kind == .transaction(.report))
        #expect(callback.result["salesAmount"] == .string("2400"))
    }
}
