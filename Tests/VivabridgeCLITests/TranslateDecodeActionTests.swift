import InterApp
import Testing

@testable import vivabridge

/// `vivabridge translate` and `decode` know the v1.1 actions: each platform's spelling out, the bridge's name in.
@Suite("translate and decode: the v1.1 actions")
struct TranslateDecodeActionTests {
    private static func lane(_ platform: Platform) -> LaneSettings {
        LaneSettings(merchantKey: "k", appId: "a", callback: "interapp-callback", platform: platform)
    }

    @Test("reprint translates to reprintTransaction on iOS and print&command=reprint on Android")
    func translateReprint() throws {
        let frame = Array(#"{"id":"r","lane":"l","action":"reprint","orderCode":"1091159196000136"}"#.utf8)
        #expect(
            try TranslateCommand.translate(frame, lane: Self.lane(.ios))
                == "vivapayclient://pay/v1?merchantKey=k&appId=a&action=reprintTransaction&orderCode=1091159196000136"
                + "&callback=interapp-callback")
        #expect(
            try TranslateCommand.translate(frame, lane: Self.lane(.android))
                == "vivapayclient://pay/v1?merchantKey=k&appId=a&action=print&command=reprint"
                + "&orderCode=1091159196000136&callback=interapp-callback%3A%2F%2Fresult")
    }

    @Test("foreground translates to action=foreground on both platforms")
    func translateForeground() throws {
        let frame = Array(#"{"id":"f","lane":"l","action":"foreground"}"#.utf8)
        #expect(
            try TranslateCommand.translate(frame, lane: Self.lane(.ios))
                == "vivapayclient://pay/v1?merchantKey=k&appId=a&action=foreground&callback=interapp-callback")
        #expect(
            try TranslateCommand.translate(frame, lane: Self.lane(.android)).contains("&action=foreground&callback="))
    }

    @Test("pre_auth and capture_pre_auth translate under their own names; decode names their answers")
    func preAuth() throws {
        let preAuth = Array(#"{"id":"pa","lane":"l","action":"pre_auth","amount":100}"#.utf8)
        #expect(
            try TranslateCommand.translate(preAuth, lane: Self.lane(.android))
                == "vivapayclient://pay/v1?merchantKey=k&appId=a&action=pre_auth&amount=100&clientTransactionId=pa"
                + "&callback=interapp-callback%3A%2F%2Fresult")
        let capture = Array(#"{"id":"c","lane":"l","action":"capture_pre_auth","orderCode":"1"}"#.utf8)
        #expect(
            try TranslateCommand.translate(capture, lane: Self.lane(.ios))
                == "vivapayclient://pay/v1?merchantKey=k&appId=a&action=capture_pre_auth&orderCode=1"
                + "&callback=interapp-callback")
        let summary = try CallbackParser.parse(
            "interapp-callback://result?status=success&action=capture_pre_auth&amount=100"
        ).summary
        #expect(summary["action"] == .string("capture_pre_auth"))
    }

    @Test("transactionDetails for an iOS lane translates to the unsupported_on_platform rejection")
    func translateUnsupported() {
        let frame = Array(#"{"id":"t","lane":"l","action":"transactionDetails","clientTransactionId":"x"}"#.utf8)
        do {
            _ = try TranslateCommand.translate(frame, lane: Self.lane(.ios))
            Issue.record("translated")
        } catch {
            #expect(error.code == .unsupportedOnPlatform)
            #expect(error.id == "t")
            #expect(error.reply["error"]?["platforms"] == .array([.string("android")]))
        }
    }

    @Test("fast_refund translates to send_money_fast_refund on Android, is refused for iOS; decode names its answer")
    func fastRefund() throws {
        let frame = Array(#"{"id":"fr","lane":"l","action":"fast_refund","amount":500}"#.utf8)
        #expect(
            try TranslateCommand.translate(frame, lane: Self.lane(.android))
                == "vivapayclient://pay/v1?merchantKey=k&appId=a&action=send_money_fast_refund&amount=500"
                + "&clientTransactionId=fr&protocol=int_default&callback=interapp-callback%3A%2F%2Fresult")
        #expect(throws: (any Error).self) { try TranslateCommand.translate(frame, lane: Self.lane(.ios)) }
        let summary = try CallbackParser.parse(
            "mycallbackscheme://result?status=success&action=send_money_fast_refund&amount=500"
        ).summary
        #expect(summary["action"] == .string("fast_refund"))
    }

    @Test("report translates to getReport&command=summary on iOS, is refused for Android; decode names its answer")
    func report() throws {
        let frame = Array(#"{"id":"r","lane":"l","action":"report","batchName":"morning"}"#.utf8)
        #expect(
            try TranslateCommand.translate(frame, lane: Self.lane(.ios))
                == "vivapayclient://pay/v1?merchantKey=k&appId=a&action=getReport&command=summary&batchName=morning"
                + "&callback=interapp-callback")
        #expect(throws: (any Error).self) { try TranslateCommand.translate(frame, lane: Self.lane(.android)) }
        let summary = try CallbackParser.parse(
            "interapp-callback://result?action=getReport&command=summary&status=success&message=Report retrieved"
        ).summary
        #expect(summary["action"] == .string("report"))
        #expect(summary["outcome"] == .string("success"))
    }

    @Test("decode names both reprint answers reprint")
    func decodeReprint() throws {
        for url in [
            "interapp-callback://result?status=success&message=Printing Success&action=reprintTransaction",
            "mycallbackscheme://result?action=print&command=reprint&message=Printing successful&status=success",
        ] {
            let summary = try CallbackParser.parse(url).summary
            #expect(summary["action"] == .string("reprint"))
            #expect(summary["outcome"] == .string("success"))
        }
    }
}
