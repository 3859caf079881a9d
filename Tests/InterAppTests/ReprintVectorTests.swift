import InterApp
import Testing

/// Vectors from Viva's "Reprint request" pages: iOS `action=reprintTransaction`, Android
/// `action=print&command=reprint`, an optional 16-digit `orderCode`.
@Suite("Reprint vectors (v1.1)")
struct ReprintVectorTests {
    @Test("iOS: action=reprintTransaction, the order code, the callback as given")
    func iosURL() throws {
        let terminal = try Fixture.terminal(
            #"{"id":"r1","lane":"lane-1","action":"reprint","orderCode":"1091159196000136"}"#)
        #expect(
            RequestURL.build(terminal, lane: Fixture.iosLane)
                == "vivapayclient://pay/v1?merchantKey=SG23323424EXS3&appId=com.example.pos&action=reprintTransaction"
                + "&orderCode=1091159196000136&callback=interapp-callback")
    }

    @Test("Android: action=print&command=reprint, then the order code")
    func androidURL() throws {
        let terminal = try Fixture.terminal(
            #"{"id":"r1","lane":"lane-3","action":"reprint","orderCode":"1020304050607080"}"#)
        #expect(
            RequestURL.build(terminal, lane: Fixture.androidLane)
                == "vivapayclient://pay/v1?merchantKey=SG23323424EXS3&appId=com.example.pos&action=print"
                + "&command=reprint&orderCode=1020304050607080&callback=mycallbackscheme%3A%2F%2Fresult")
    }

    @Test("without an order code (the last transaction) on both platforms; no protocol, no clientTransactionId")
    func withoutOrderCode() throws {
        let terminal = try Fixture.terminal(#"{"id":"r1","lane":"l","action":"reprint"}"#)
        #expect(terminal.parameters.isEmpty)
        let ios = RequestURL.parse(RequestURL.build(terminal, lane: Fixture.iosLane)).map(\.name)
        #expect(ios == ["merchantKey", "appId", "action", "callback"])
        let android = RequestURL.parse(RequestURL.build(terminal, lane: Fixture.androidLane)).map(\.name)
        #expect(android == ["merchantKey", "appId", "action", "command", "callback"])
        #expect(throws: Never.self) { try terminal.check(platform: .ios) }
        #expect(throws: Never.self) { try terminal.check(platform: .android) }
    }

    @Test(
        "orderCode is a string of exactly 16 digits above zero; command and amounts are not reprint's",
        arguments: [
            (#""orderCode":"123""#, RejectionCode.invalidValue),
            (#""orderCode":"10203040506070801""#, .invalidValue),
            (#""orderCode":"0000000000000000""#, .invalidValue),
            (#""orderCode":"10203040506070ab""#, .invalidValue),
            (#""orderCode":1020304050607080"#, .invalidValue),
            (#""orderCode":"""#, .invalidValue),
            (#""command":"reprint""#, .unknownField),
            (#""amount":100"#, .unknownField),
        ])
    func validation(fields: String, code: RejectionCode) {
        let rejection = Fixture.rejection(#"{"id":"r1","lane":"l","action":"reprint",\#(fields)}"#)
        #expect(rejection?.code == code, "\(fields): \(String(describing: rejection))")
    }

    @Test("the iOS answer (action=reprintTransaction) is a reprint's success")
    func iosCallback() throws {
        let callback = try Fixture.callback(
            "interapp-callback://result?status=success&message=Printing Success&action=reprintTransaction"
                + "&orderCode=1091159196000136")
        #expect(callback.kind == .transaction(.reprint))
        #expect(callback.actionName == "reprint")
        #expect(callback.baseOutcome == .success)
        #expect(callback.result["orderCode"] == .string("1091159196000136"))
    }

    @Test("the Android answer (Viva's example, action=print&command=reprint) is a reprint's success")
    func androidCallback() throws {
        let callback = try Fixture.callback(
            "mycallbackscheme://result?action=print&command=reprint&message=Printing successful"
                + "&orderCode=1020304050607080&status=success")
        #expect(callback.kind == .transaction(.reprint))
        #expect(callback.baseOutcome == .success)
        #expect(callback.message == "Printing successful")
        let failed = try Fixture.callback(
            "mycallbackscheme://result?action=PRINT&command=reprint&status=fail&message=(-999) UNEXPECTED")
        #expect(failed.kind == .transaction(.reprint))
        #expect(failed.baseOutcome == .failure)
    }
}
