/// Why a URL is not a terminal callback.
public struct CallbackParseError: Error, Sendable, Equatable {
    /// What is wrong, for a person: `not a callback URL: no '?' …`.
    public let message: String

    /// Creates an error; the message is prefixed with `not a callback URL: `.
    public init(_ reason: String) {
        message = "not a callback URL: " + reason
    }
}

extension CallbackParseError: CustomStringConvertible {
    /// The message.
    public var description: String { message }
}
