import InterApp

/// Terminal settings: defaults under `terminal:`, or one lane's own values.
public struct TerminalSettings: Sendable, Equatable {
    /// The merchant's key, added to every URL. A secret: never logged or published.
    public var merchantKey: String = ""
    /// The client app id the terminal app sees.
    public var appId: String = "com.vivabridge.pos"
    /// The callback scheme (iOS) or URI (Android) the terminal app answers on.
    public var callback: String = "interapp-callback"
    /// Deadlines per action, in milliseconds; a command's own `timeoutMs` wins.
    public var timeoutMs: [TerminalAction: Int] = TerminalSettings.defaultTimeouts

    /// The contract's default deadlines.
    public static let defaultTimeouts: [TerminalAction: Int] = [
        .sale: 120_000, .cancel: 120_000, .batch: 30_000, .transactionDetails: 30_000, .abort: 30_000,
        .reprint: 30_000, .foreground: 30_000,
        .preAuth: 120_000, .capturePreAuth: 120_000, .unreferencedRefund: 120_000,
        .fastRefund: 120_000, .report: 30_000,
    ]

    /// Creates the default terminal settings.
    public init() {}
}

/// One lane: a terminal app, how the bridge reaches it (a relay's endpoint, or Viva's cloud), and its dialect.
public struct LaneConfiguration: Sendable, Equatable {
    /// The lane's id, as commands name it.
    public var id: String
    /// How the bridge reaches the lane's terminal.
    public var transport: LaneTransport
    /// The terminal app's platform, which decides the callback dialect.
    public var platform: Platform
    /// This lane's terminal settings (defaults merged with its own keys).
    public var terminal: TerminalSettings
    /// The relay's CURVE public key (Z85), pinned: the link is CURVE and comes up only with that relay.
    public var relayPublicKey: String?

    /// Creates a relay lane.
    public init(id: String, endpoint: String, platform: Platform, terminal: TerminalSettings = TerminalSettings()) {
        self.init(id: id, transport: .relay(endpoint: endpoint), platform: platform, terminal: terminal)
    }

    /// Creates a lane reached by `transport`.
    public init(
        id: String, transport: LaneTransport, platform: Platform, terminal: TerminalSettings = TerminalSettings()
    ) {
        self.id = id
        self.transport = transport
        self.platform = platform
        self.terminal = terminal
    }

    /// Where the lane is reached, as logs, events and `lanes` show it: the relay's endpoint, or
    /// `viva-cloud:<terminalId>` for a cloud lane.
    public var endpoint: String {
        switch transport {
        case .relay(let endpoint): endpoint
        case .cloud(let terminal): "viva-cloud:\(terminal.terminalId)"
        }
    }

    /// The relay's endpoint; nil for a cloud lane, which has no link of its own.
    public var relayEndpoint: String? {
        if case .relay(let endpoint) = transport { endpoint } else { nil }
    }

    /// The settings the URL builder needs.
    public var settings: LaneSettings {
        LaneSettings(
            merchantKey: terminal.merchantKey, appId: terminal.appId, callback: terminal.callback,
            platform: platform)
    }

    /// The deadline of `action` on this lane, in milliseconds.
    public func timeout(for action: TerminalAction) -> Int {
        terminal.timeoutMs[action] ?? TerminalSettings.defaultTimeouts[action] ?? 120_000
    }
}
