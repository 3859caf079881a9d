/// Why ``BridgeService`` ended the process's bridge: one line an operator can act on.
public struct BridgeServiceError: Error, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable {
        /// An endpoint could not be bound or the journal could not be opened.
        case startFailed
        /// The bridge's loop stopped on an error.
        case loopFailed
    }

    /// What went wrong.
    public let code: Code
    /// The error underneath.
    public let underlying: any Error

    init(_ code: Code, underlying: any Error) {
        self.code = code
        self.underlying = underlying
    }

    public var description: String {
        switch code {
        case .startFailed: "the bridge could not start: \(underlying)"
        case .loopFailed: "the bridge stopped on an error: \(underlying)"
        }
    }
}
