/// A configuration the bridge refuses, with the key and the rule it breaks.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key path, e.g. `lanes[1].endpoint`, or the environment variable that set it.
    public let key: String
    /// The rule the value breaks, in words a person can act on.
    public let message: String

    /// Creates an error about `key`.
    public init(key: String, _ message: String) {
        self.key = key
        self.message = message
    }

    public var description: String { key.isEmpty ? message : "\(key): \(message)" }
}
