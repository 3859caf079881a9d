import BridgeCore
import BridgeJournal

/// `security:` (docs/SECURITY.md): the bridge's CURVE key, the clients it admits and for which sockets.
public struct SecuritySettings: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What an admitted client may use.
    public enum Role: String, Sendable, CaseIterable {
        /// The command and commandPull sockets.
        case commands
        /// The events socket.
        case events
        /// (v1.1) The command sockets, and `resolve`: closing an `unknown` command by hand.
        case admin
    }

    /// One admitted client.
    public struct Client: Sendable, Equatable {
        /// The client's name: in logs now, in the journal and events later.
        public var name: String
        /// Its CURVE public key, Z85.
        public var publicKey: String
        /// The sockets it may use.
        public var roles: Set<Role>

        /// Creates an allow-list entry.
        public init(name: String, publicKey: String, roles: Set<Role>) {
            self.name = name
            self.publicKey = publicKey
            self.roles = roles
        }
    }

    /// The file the bridge's secret key was read from.
    public var secretKeyFile: String
    /// The bridge's secret key, Z85; never printed (see ``description``).
    public var secretKey: String
    /// The bridge's public key, derived from the secret one: what clients and relays are given.
    public var publicKey: String
    /// The allow-list.
    public var clients: [Client]
    /// Whether every lane must pin its relay's key (the default).
    public var requireLaneKeys: Bool

    /// Creates settings from keys already read and checked.
    public init(secretKeyFile: String, secretKey: String, publicKey: String, clients: [Client], requireLaneKeys: Bool) {
        self.secretKeyFile = secretKeyFile
        self.secretKey = secretKey
        self.publicKey = publicKey
        self.clients = clients
        self.requireLaneKeys = requireLaneKeys
    }

    /// Without the secret key.
    public var description: String {
        "security(key file \(secretKeyFile), public \(publicKey), \(clients.count) client(s))"
    }

    /// Without the secret key, as ``description``.
    public var debugDescription: String { description }
}
