import InterApp
import Testing

/// The terminal link's messages as frames, both ways (PROTOCOL.md §5).
@Suite("Relay messages")
struct RelayMessageTests {
    static let messages: [RelayMessage] = [
        .hello(body: Array(#"{"bridge":"1"}"#.utf8)), .open(ref: [1, 2], url: Array("vivapayclient://pay/v1".utf8)),
        .opened(ref: [1]), .notOpened(ref: [1], reason: Array("no app".utf8)), .callback(url: Array("x://y".utf8)),
        .returned, .callback(url: Array("x://y".utf8), seq: 7), .received(seq: 18_446_744_073_709_551_615),
    ]

    @Test("every message reads back from its frames, its kind's word first")
    func roundTrip() throws {
        for message in Self.messages {
            #expect(try RelayMessage(frames: message.frames) == message)
            #expect(message.frames.first == message.kind.word)
        }
    }

    @Test("the sequence numbers travel in decimal; a callback's unreadable one leaves it a v1.2 callback")
    func sequenceNumbers() throws {
        #expect(
            RelayMessage.callback(url: [0x78], seq: 42).frames == [Array("callback".utf8), [0x78], Array("42".utf8)])
        #expect(RelayMessage.received(seq: 3).frames == [Array("received".utf8), Array("3".utf8)])
        for bad in ["0", "-1", "1e3", "", " 7", "18446744073709551616"] {
            let frames = [Array("callback".utf8), [0x78], Array(bad.utf8)]
            #expect(try RelayMessage(frames: frames) == .callback(url: [0x78]), "\(bad)")
            let received = #expect(throws: RelayMessageError.self) {
                try RelayMessage(frames: [Array("received".utf8), Array(bad.utf8)])
            }
            #expect(received?.code == .badSequence, "\(bad)")
        }
        let bare = #expect(throws: RelayMessageError.self) { try RelayMessage(frames: [Array("received".utf8)]) }
        #expect(bare?.code == .missingFrame)
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
