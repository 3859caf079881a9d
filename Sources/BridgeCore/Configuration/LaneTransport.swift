/// How the bridge reaches a lane's terminal: one value the correlator and the loop switch on, in one place
/// each; every rule that does not depend on it (one transaction a lane, deadlines, idempotency, the journal
/// before anything leaves, events) is shared.
public enum LaneTransport: Sendable, Equatable {
    /// A relay on the device (docs/RELAY.md), reached over ZeroMQ at `endpoint`.
    case relay(endpoint: String)
    /// A Viva Terminal app driven through Viva's Cloud Terminal API (docs/CLOUD.md), with no code on the
    /// device.
    case cloud(CloudTerminal)

    /// Which of the two a transport is.
    public enum Kind: String, Sendable {
        case relay, cloud
    }

    /// Which of the two this is.
    public var kind: Kind {
        switch self {
        case .relay: .relay
        case .cloud: .cloud
        }
    }

    /// `relay` or `cloud`, as `lanes`, the lane events, the page and `/metrics` show it.
    public var name: String { kind.rawValue }
}

/// The terminal of a cloud lane, as Viva's Cloud Terminal API names it.
public struct CloudTerminal: Sendable, Equatable {
    /// The terminal id (TID) Viva shows for the device.
    public var terminalId: String
    /// The till's id the merchant gives Viva: a session is asked for and aborted under it.
    public var cashRegisterId: String

    /// Creates a cloud lane's terminal.
    public init(terminalId: String, cashRegisterId: String) {
        self.terminalId = terminalId
        self.cashRegisterId = cashRegisterId
    }
}
