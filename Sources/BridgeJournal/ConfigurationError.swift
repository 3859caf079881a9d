import BridgeCore

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

/// Every problem found in one configuration, in the order met (file keys, then the environment's
/// variables, then the rules across keys).
public struct ConfigurationProblems: Sendable {
    /// The problems, first met first; empty when the configuration is accepted.
    public private(set) var all: [ConfigurationError] = []

    package init() {}

    package mutating func record(_ problem: ConfigurationError) { all.append(problem) }
    package mutating func record(_ problems: [ConfigurationError]) { all.append(contentsOf: problems) }

    /// The value `body` reads, or nil with its problem recorded.
    package mutating func attempt<T>(_ body: () throws(ConfigurationError) -> T) -> T? {
        do {
            return try body()
        } catch {
            all.append(error)
            return nil
        }
    }
}
