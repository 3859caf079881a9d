import InterApp
import Testing

/// Vectors from Viva's "Foreground request" pages (iOS and Android): `action=foreground`, no parameters,
/// no answer.
@Suite("Foreground vectors (v1.1)")
struct ForegroundVectorTests {
    @Test("the same URL on both platforms, only the callback differs")
    func urls() throws {
        let terminal = try Fixture.terminal(#"{"id":"f1","lane":"l","action":"foreground"}"#)
        #expect(terminal.parameters.isEmpty)
        #expect(
            RequestURL.build(terminal, lane: Fixture.iosLane)
                == "vivapayclient://pay/v1?merchantKey=SG23323424EXS3&appId=com.example.pos&action=foreground"
                + "&callback=interapp-callback")
        #expect(
            RequestURL.build(terminal, lane: Fixture.androidLane)
                == "vivapayclient://pay/v1?merchantKey=SG23323424EXS3&appId=com.example.pos&action=foreground"
                + "&callback=mycallbackscheme%3A%2F%2Fresult")
        for platform in Platform.allCases {
            #expect(throws: Never.self) { try terminal.check(platform: platform) }
        }
    }

    @Test("it takes no parameters; it ends when opened and cannot be aborted")
    func rules() {
        #expect(
            Fixture.rejection(#"{"id":"f1","lane":"l","action":"foreground","orderCode":"1"}"#)?.code == .unknownField)
        #expect(Fixture.rejection(#"{"id":"f1","lane":"l","action":"foreground","amount":1}"#)?.code == .unknownField)
        #expect(TerminalAction.foreground.spec.endsWhenOpened)
        #expect(!TerminalAction.foreground.spec.abortable)
        #expect(TerminalAction.allCases.filter(\.spec.endsWhenOpened) == [.foreground])
    }
}
