import BridgeCore
import BridgeJournal
import ZeroMQ

/// An endpoint of the bridge's own could not be bound: names the endpoint, the configuration key that set
/// it and its environment variable, so the operator knows what to change.
public struct BindError: Error, CustomStringConvertible {
    /// The configuration key (`command`, `events`, `commandPull`).
    public let key: String
    /// The endpoint that could not be bound.
    public let endpoint: String
    /// libzmq's reason.
    public let cause: any Error

    public var description: String {
        let reason = (cause as? ZMQError).map { $0.message.lowercased() } ?? "\(cause)"
        return "\(key): \(endpoint): \(reason); set \"\(key)\" or \(EnvironmentSpelling.variable([key]))"
    }
}
