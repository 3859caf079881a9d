import InterApp
import Testing

/// The terminal link's messages as frames, both ways (PROTOCOL.md §5).
@Suite("Relay messages")
struct RelayMessageTests {
    static let messages: [RelayMessage] = [
        .hello(body: Array(#"{"bridge":"1"}"#.utf8)), .open(ref: [1, 2], url: Array("vivapayclient://pay/v1".utf8)),
        .opened(ref: [1]), .notOpened(ref: [1], reason: Array("no app".utf8)), .callback(url: Array("x://y".utf8)),
        .returned,
    ]

    @Test("every message reads back from its frames, its kind's word first")
    func roundTrip() throws {
        for message in Self.messages {
            #expect(try RelayMessage(frames: message.frames) == message)
            #expect(message.frames.first == message.kind.word)
        }
    }

    @Test("an open without its URL names its ref, so that a relay can answer it not_opened")
    func openWithoutURL() {
        let missingURL = #expect(throws: RelayMessageError.self) {
            try RelayMessage(frames: [Array("open".utf8), Array("ref-1".utf8)])
        }
        #expect(missingURL?.code == .missingFrame)
        #expect(missingURL?.knownKind == .open)
        #expect(missingURL?.openReference == Array("ref-1".utf8))
        let bare = #expect(throws: RelayMessageError.self) { try RelayMessage(frames: [Array("open".utf8)]) }
        #expect(bare?.openReference == nil)
        let unknown = #expect(throws: RelayMessageError.self) { try RelayMessage(frames: [Array("bogus".utf8)]) }
        #expect(unknown?.code == .unknownKind)
        #expect(unknown?.knownKind == nil)
    }
}
