import BridgeCore
import BridgeJournal

/// Why ``BridgeService`` ended the process's bridge: one line an operator can act on.
public struct BridgeServiceError: Error, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable {
        /// An endpoint could not be bound or the journal could not be opened.
        case startFailed
        /// The bridge's loop stopped on an error.
        case loopFailed
        /// The bridge stopped serving because the journal's database could not be reached for longer than
        /// its lease (`leaseMs`): it may no longer be the one active bridge.
        case journalUnreachable
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
        case .journalUnreachable:
            "the bridge stopped serving: no renewal of the journal's lease got through for longer than leaseMs "
                + "(\(underlying)); check PostgreSQL and the network to it, or what paused this process "
                + "(a debugger, SIGSTOP, a suspended virtual machine)"
        }
    }
}
