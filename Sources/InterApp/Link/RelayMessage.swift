/// One message of the terminal link between the bridge and a lane's relay (PROTOCOL.md §5): the one
/// place where the link's frame words are spelled. The bridge, the simulator and the benchmark's
/// relays all encode and decode through it.
public enum RelayMessage: Sendable, Equatable {
    /// `["hello", json]`: the bridge introduces itself, or the relay answers with its platform and app.
    case hello(body: [UInt8])
    /// `["open", ref, url]`: the bridge asks the relay to open `url`; `ref` is the bridge's own token.
    case open(ref: [UInt8], url: [UInt8])
    /// `["opened", ref]`: the terminal app accepted the URL.
    case opened(ref: [UInt8])
    /// `["not_opened", ref, reason]`: the URL could not be opened.
    case notOpened(ref: [UInt8], reason: [UInt8])
    /// `["callback", url, n]`: a callback URL exactly as the terminal app delivered it, and the relay's own
    /// sequence number `n` for the lane (v1.3: decimal, from 1 at the relay's start), which the bridge
    /// answers with `received`. A v1.2 relay sends `["callback", url]`: `seq` nil, no answer.
    case callback(url: [UInt8], seq: UInt64? = nil)
    /// `["returned"]`: the store app came back to the foreground without a callback.
    case returned
    /// `["received", n]` (v1.3): the bridge journaled the outcome of the relay's callback `n` (or already had
    /// it); the relay may forget that callback.
    case received(seq: UInt64)

    /// The first frame of each message.
    public enum Kind: String, Sendable, CaseIterable {
        case hello, open, opened
        case notOpened = "not_opened"
        case callback, returned, received

        /// The frame word as it travels.
        public var word: [UInt8] { Self.words[self]! }

        private static let words: [Kind: [UInt8]] = Dictionary(
            uniqueKeysWithValues: allCases.map { ($0, Array($0.rawValue.utf8)) })

        /// The kind a first frame names, if any.
        public init?(word: some Collection<UInt8>) {
            guard let kind = Self.allCases.first(where: { $0.word.elementsEqual(word) }) else { return nil }
            self = kind
        }
    }

    /// This message's kind.
    public var kind: Kind {
        switch self {
        case .hello: .hello
        case .open: .open
        case .opened: .opened
        case .notOpened: .notOpened
        case .callback: .callback
        case .returned: .returned
        case .received: .received
        }
    }

    /// The message as ZeroMQ frames.
    public var frames: [[UInt8]] {
        switch self {
        case .hello(let body): [Kind.hello.word, body]
        case .open(let ref, let url): [Kind.open.word, ref, url]
        case .opened(let ref): [Kind.opened.word, ref]
        case .notOpened(let ref, let reason): [Kind.notOpened.word, ref, reason]
        case .callback(let url, let seq):
            if let seq { [Kind.callback.word, url, Self.decimal(seq)] } else { [Kind.callback.word, url] }
        case .returned: [Kind.returned.word]
        case .received(let seq): [Kind.received.word, Self.decimal(seq)]
        }
    }

    /// Reads a message from its frames. Frames past the ones a kind needs are ignored, as are a
    /// missing `not_opened` reason (an empty one is taken) and a `callback`'s missing or unreadable sequence
    /// number (taken as a v1.2 relay's callback).
    ///
    /// - Throws: ``RelayMessageError`` when there is no frame, the kind is unknown, or a needed frame
    ///   is missing, or a `received`'s sequence number is not a decimal number from 1.
    ///
    /// Not generic: the bridge calls it from another module for every message of every relay, and a generic
    /// initializer ran there unspecialized (type metadata looked up, the frames copied into a new array).
    public init(frames: ArraySlice<[UInt8]>) throws(RelayMessageError) {
        guard let first = frames.first else { throw RelayMessageError(.empty, kind: []) }
        guard let kind = Kind(word: first) else { throw RelayMessageError(.unknownKind, kind: first) }
        let rest = frames.dropFirst()
        func frame(_ index: Int) throws(RelayMessageError) -> [UInt8] {
            guard index < rest.count else { throw RelayMessageError(.missingFrame, kind: first) }
            return rest[rest.startIndex + index]
        }
        switch kind {
        case .hello: self = .hello(body: try frame(0))
        case .open:
            guard rest.count > 1 else {
                throw RelayMessageError(.missingFrame, kind: first, openReference: rest.first)
            }
            self = .open(ref: try frame(0), url: try frame(1))
        case .opened: self = .opened(ref: try frame(0))
        case .notOpened: self = .notOpened(ref: try frame(0), reason: rest.count > 1 ? try frame(1) : [])
        case .callback:
            // A sequence number that cannot be read leaves the callback a v1.2 one: taken, never answered.
            self = .callback(url: try frame(0), seq: rest.count > 1 ? try? Self.sequence(frame(1), kind: first) : nil)
        case .returned: self = .returned
        case .received: self = .received(seq: try Self.sequence(frame(0), kind: first))
        }
    }

    /// A sequence number as it travels: decimal ASCII digits.
    private static func decimal(_ seq: UInt64) -> [UInt8] { Array(String(seq).utf8) }

    /// Reads a sequence number: 1 to 20 decimal digits, not 0.
    private static func sequence(_ bytes: [UInt8], kind: [UInt8]) throws(RelayMessageError) -> UInt64 {
        guard (1...20).contains(bytes.count), bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let value = UInt64(String(decoding: bytes, as: UTF8.self)), value > 0
        else { throw RelayMessageError(.badSequence, kind: kind) }
        return value
    }
}

extension RelayMessage {
    /// Reads a message from its frames (``init(frames:)-(ArraySlice<[UInt8]>)``).
    public init(frames: [[UInt8]]) throws(RelayMessageError) { try self.init(frames: frames[...]) }
}

/// Why frames from the terminal link are not a ``RelayMessage``.
public struct RelayMessageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Code: Sendable, Equatable {
        /// A message with no frame at all.
        case empty
        /// A first frame that names no kind of the link.
        case unknownKind
        /// A kind the link knows, without the frames it needs.
        case missingFrame
        /// A `received` whose sequence number is not a decimal number from 1.
        case badSequence
    }

    /// What is wrong.
    public let code: Code
    /// The first frame as received, for a log line (quote it with ``Quote/printable(_:limit:)``).
    public let kind: [UInt8]
    /// The `ref` of an `open` that came without its URL, so that a relay can still give it its one
    /// answer (`not_opened`); nil otherwise.
    public let openReference: [UInt8]?

    init(_ code: Code, kind: [UInt8], openReference: [UInt8]? = nil) {
        self.code = code
        self.kind = kind
        self.openReference = openReference
    }

    /// The kind the first frame names, when the link knows it.
    public var knownKind: RelayMessage.Kind? { RelayMessage.Kind(word: kind) }

    public var description: String {
        switch code {
        case .empty: "an empty message"
        case .unknownKind: "a message of unknown kind \(Quote.printable(kind))"
        case .missingFrame: "a \(Quote.printable(kind)) message without the frames it needs"
        case .badSequence: "a \(Quote.printable(kind)) message whose sequence number is not a decimal number from 1"
        }
    }
}
