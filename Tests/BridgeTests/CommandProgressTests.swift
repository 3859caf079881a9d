import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// A command's way to the terminal app, on its own (issue 37): one state instead of a state and a flag.
@Suite("Command progress: sent, opened, restored")
struct CommandProgressTests {
    @Test("accepted, then forwarded once sent, then delivered once opened; a repeat of either is refused")
    func forwardedThenDelivered() {
        var progress = CommandProgress.accepted
        #expect(progress.state == .accepted && !progress.mayHaveOpened)
        let sent = progress.sent()
        #expect(sent && progress == .forwarded && progress.state == .forwarded && !progress.mayHaveOpened)
        let sentAgain = progress.sent()
        #expect(!sentAgain && progress == .forwarded, "sent twice does not move it")
        let opened = progress.opened()
        #expect(opened && progress == .delivered && progress.state == .delivered && progress.mayHaveOpened)
        let openedAgain = progress.opened()
        let sentAfterOpened = progress.sent()
        #expect(!openedAgain && !sentAfterOpened && progress == .delivered)
    }

    @Test("a restored command shows forwarded but may be open, so not_opened can no longer end it")
    func restored() {
        var progress = CommandProgress.restored
        #expect(progress.state == .forwarded && progress.mayHaveOpened)
        let sent = progress.sent()
        #expect(!sent && progress == .restored, "a restored command is not sent again")
        let opened = progress.opened()
        #expect(opened && progress == .delivered)
    }

    @Test("opened before the loop said it was sent still delivers it")
    func openedWhileAccepted() {
        var progress = CommandProgress.accepted
        let opened = progress.opened()
        #expect(opened && progress == .delivered && progress.mayHaveOpened)
    }
}
