import BridgeCore
import BridgeJournal
import Foundation
import InterApp

/// Everything the bridge needs to run: its endpoints, its journal, and its lanes.
///
/// Load one from YAML with ``BridgeConfiguration/load(yaml:environment:)``; see `docs/CONFIG.md`.
public struct BridgeConfiguration: Sendable, Equatable {
    /// The ROUTER endpoint commands arrive on and replies leave from.
    public var command: String = "tcp://127.0.0.1:5555"
    /// The PULL endpoint for fire-and-forget commands; nil (the default) turns it off.
    public var commandPull: String?
    /// The XPUB endpoint events are published on.
    public var events: String = "tcp://127.0.0.1:5556"
    /// The journal's SQLite file, or a PostgreSQL URL (without password).
    public var journal: String = "/var/lib/vivabridge/journal.sqlite"
    /// The file a PostgreSQL journal's password was read from (`journalPasswordFile:`), nil when not set.
    public var journalPasswordFile: String?
    /// The password read from ``journalPasswordFile`` at load; nil: from the environment
    /// (``PostgresAddress/passwordVariables``). Never shown.
    public var journalPassword: JournalPassword?
    /// How the journal reaches the disk: `normal` survives a crash of the process, `full` a power loss.
    public var journalSync: JournalSync = .normal
    /// Keep finished commands this many days, then remove them (as `vivabridge journal prune` would,
    /// never an outstanding or `unknown` one): once at start, then daily, a batch a tick. Nil (the key
    /// absent): keep every command.
    public var journalRetentionDays: Int?
    /// This bridge's name in its logs, in the journal's lease and in `/readyz`; nil: ``defaultInstance``.
    public var instance: String?
    /// How long the journal's lease lasts without a renewal, in milliseconds (only with a PostgreSQL journal,
    /// docs/OPERATIONS.md "Two bridges on one PostgreSQL journal"); the holder renews it every quarter of it.
    public var leaseMs: Int = BridgeConfiguration.defaultLeaseMs
    /// Settings every lane inherits.
    public var terminal: TerminalSettings = TerminalSettings()
    /// The lanes, each a terminal app behind its relay.
    public var lanes: [LaneConfiguration] = []
    /// The largest command accepted, in bytes.
    public var maxCommandBytes: Int = 65536
    /// How long after an abort's "aborted" answer the sale's own callback may still overrule it.
    public var abortGraceMs: Int = 5000
    /// How long a shutdown waits for commands in flight before closing.
    public var shutdownGraceMs: Int = 10000
    /// The `heartbeatIntervalMs` key as given; nil (absent): ``heartbeatIntervalMs`` follows the lanes.
    public var heartbeatIntervalSetting: Int?
    /// The `heartbeatTimeoutMs` key as given; nil (absent): three heartbeat intervals.
    public var heartbeatTimeoutSetting: Int?
    /// How often the events socket publishes `bridge.heartbeat`, in milliseconds (1,000 to 60,000): a
    /// dashboard that hears none for two intervals knows the bridge is gone, not quiet.
    public var heartbeatEventMs: Int = 2000
    /// How long a batch may stay open before the bridge counts it as closed by expiry (48 h).
    public var batchExpiryHours: Int = 48
    /// How the process logs (`log: {level, format}`); the executable applies it.
    public var log = LogSettings()
    /// CURVE and the client allow-list (docs/SECURITY.md); nil: plain sockets, on loopback only unless
    /// ``insecure``.
    public var security: SecuritySettings?
    /// Plain sockets on addresses other than loopback, without `security` (a warning at every start); for
    /// ``http``, any address other than loopback, with or without `security`.
    public var insecure = false
    /// Where the HTTP listener (health, metrics, the lanes page) listens, `host:port` (port 0: any free
    /// port); nil (the default, or `off`) turns it off. Loopback only unless ``insecure``.
    public var http: HTTPAddress?
    /// Further names the HTTP listener answers to in a request's `Host` (lower case, no port), besides
    /// its own address and the loopback names: a reverse proxy's, a name the store's screens use.
    public var httpHosts: [String] = []
    /// Viva's cloud (`vivaCloud:`, docs/CLOUD.md): `unknown` results looked up in Viva's records; nil (the
    /// default): the bridge never calls Viva.
    public var vivaCloud: VivaCloudConfiguration?

    /// `leaseMs` when the file does not set it.
    public static let defaultLeaseMs = 4000

    /// The name this bridge goes by: ``instance``, else the host's name and the process's id.
    public var instanceName: String { instance ?? Self.defaultInstance }

    /// The host's name and the process's id (`till-3-4127`).
    public static var defaultInstance: String {
        "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
    }

    /// Whether the journal is in PostgreSQL (a lease decides which bridge is active) rather than a file.
    public var journalIsShared: Bool { PostgresAddress.isURL(journal) }

    /// Creates a configuration of defaults with no lanes.
    public init() {}

    /// The lane with `id`, if configured.
    public func lane(_ id: String) -> LaneConfiguration? { lanes.first { $0.id == id } }
}
