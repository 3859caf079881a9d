/// Why a byte sequence is not one valid JSON text.
public struct JSONParseError: Error, Sendable, Equatable {
    /// What is wrong and where, for a person: `invalid JSON at byte 17: trailing comma before '}'`.
    public let message: String
    /// The byte offset at which the problem was found.
    public let offset: Int

    /// Creates an error at `offset` from a short reason; the message names the offset.
    public init(_ reason: String, at offset: Int) {
        self.message = "invalid JSON at byte \(offset): \(reason)"
        self.offset = offset
    }
}

extension JSONParseError: CustomStringConvertible {
    /// The message.
    public var description: String { message }
}
