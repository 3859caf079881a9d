import Testing
import ZeroMQ

/// Frames at the edges: empty, large, and many in one message.
@Suite("Frames and multipart messages")
struct FrameTests {
    /// A connected PUSH → PULL pair over `transport`.
    private func pipeline(_ context: Context, _ transport: Transport) throws -> (push: Socket, pull: Socket) {
        let pull = try makeSocket(context, .pull)
        let push = try makeSocket(context, .push)
        try push.connect(try bindFresh(pull, transport))
        return (push, pull)
    }

    @Test("a frame of 0 bytes arrives as an empty frame", arguments: Transport.allCases)
    func emptyFrame(_ transport: Transport) throws {
        try withContext { context in
            let (push, pull) = try pipeline(context, transport)
            try push.send([[]])
            try push.send([[], [1], []])
            #expect(try pull.receive() == [[]])
            #expect(try pull.receive() == [[], [1], []])
        }
    }

    @Test("a frame of 4 MiB arrives byte for byte", arguments: Transport.allCases)
    func largeFrame(_ transport: Transport) throws {
        try withContext { context in
            let (push, pull) = try pipeline(context, transport)
            let size = 4 * 1024 * 1024
            let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 16) }
            try push.send([Array("header".utf8), payload])
            let received = try #require(try pull.receive())
            #expect(received.count == 2)
            #expect(received.last?.count == size)
            #expect(received.last == payload)
        }
    }

    @Test("a 100-frame message arrives whole and in order", arguments: Transport.allCases)
    func hundredFrames(_ transport: Transport) throws {
        try withContext { context in
            let (push, pull) = try pipeline(context, transport)
            let frames = (0..<100).map { Array("frame \($0)".utf8) }
            try push.send(frames)
            try push.send(["after"])

            // Frame by frame: each but the last says more follows.
            for (index, expected) in frames.enumerated() {
                let frame = try #require(try pull.receiveFrame())
                #expect(frame.bytes == expected)
                #expect(frame.more == (index < frames.count - 1))
            }
            #expect(text(try pull.receive()) == ["after"])

            // And whole, through receive().
            try push.send(frames)
            #expect(try pull.receive() == frames)
        }
    }

    @Test("String frames are sent as their UTF-8 bytes")
    func stringFrames() throws {
        try withContext { context in
            let (push, pull) = try pipeline(context, .inproc)
            try push.send(["crème", ""])
            #expect(try pull.receive() == [Array("crème".utf8), []])
        }
    }
}
