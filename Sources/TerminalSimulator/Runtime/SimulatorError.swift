/// Why a simulator could not start.
public struct SimulatorError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What went wrong.
    public enum Code: String, Sendable {
        /// Two lanes have the same id.
        case duplicateLane
        /// A socket could not be made or bound (see the message).
        case bindFailed
        /// ``Simulator/start()`` was called after ``Simulator/stop()``: a simulator runs once.
        case stopped
    }

    /// What went wrong.
    public let code: Code
    /// A message a person can act on.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
