import BridgeCore
import BridgeJournal
import Foundation
import Logging
import Synchronization
import ZeroMQ

extension BridgeLoop {
    /// The ZAP handler for `security`'s allow-list (each client on the sockets its roles name), or nil
    /// without security. Made before any socket binds, so that no connection is ever let in unchecked.
    static func startZAP(
        _ security: SecuritySettings?, context: Context, logger: Logger, onRefused: @escaping @Sendable () -> Void
    ) throws -> ZAPHandler? {
        guard let security else { return nil }
        let refusals = RefusalLog(logger: logger)
        return try ZAPHandler(
            context: context, clients: zapClients(security.clients),
            onRefusal: {
                onRefused()
                refusals.record(keyPrefix: $0, domain: $1)
            })
    }

    /// The allow-list as the ZAP handler takes it: each client on the sockets (ZAP domains) its roles name.
    /// `admin` admits to the command sockets and is kept as a domain of its own, which no socket has, so
    /// that ``mayResolve(_:security:zap:)`` reads it from the list a SIGHUP replaces.
    static func zapClients(_ clients: [SecuritySettings.Client]) -> [ZAPClient] {
        clients.map { client in
            let domains = client.roles.flatMap { role in
                role == .admin ? [SecuritySettings.Role.commands.rawValue, role.rawValue] : [role.rawValue]
            }
            return ZAPClient(name: client.name, publicKey: client.publicKey, domains: Set(domains))
        }
    }

    /// Whether the client named `client` may send `resolve`: anyone on plain sockets, only a client with
    /// the `admin` role (as the allow-list says now) with security.
    static func mayResolve(_ client: String?, security: SecuritySettings?, zap: ZAPHandler?) -> Bool {
        guard security != nil else { return true }
        guard let client, let domains = zap?.domains(ofClientNamed: client) else { return false }
        return domains?.contains(SecuritySettings.Role.admin.rawValue) ?? true
    }

    /// Makes `socket` a CURVE server with the bridge's key whose peers the ZAP handler checks for `role`;
    /// without security it stays plain.
    static func secure(_ socket: Socket, _ security: SecuritySettings?, role: SecuritySettings.Role) throws {
        guard let security else { return }
        try socket.setZAPDomain(role.rawValue)
        try socket.setCurveServer(true)
        try socket.setCurveSecretKey(security.secretKey)
    }

    /// The warning every start with `insecure: true` logs: which plain sockets others can reach.
    static func warnIfInsecure(_ configuration: BridgeConfiguration, logger: Logger) {
        guard configuration.security == nil, configuration.insecure else { return }
        let exposed = configuration.ownEndpoints.filter { !Loopback.isLoopback(endpoint: $0.1) }
        guard !exposed.isEmpty else { return }
        let listed = exposed.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        logger.warning(
            "insecure: true: plain sockets anyone on the network can use; add security (docs/SECURITY.md)",
            metadata: ["sockets": "\(listed)"])
    }

    /// The warning a start logs when users other than the bridge's may read the journal's files
    /// (``Journal/exposedFiles(of:)``), with the chmod that fixes it.
    static func warnIfJournalExposed(_ path: String, logger: Logger) {
        let exposed = Journal.exposedFiles(of: path)
        guard !exposed.isEmpty else { return }
        logger.warning(
            "the journal can be read by users other than the bridge's; it holds who paid what (docs/SECURITY.md)",
            metadata: [
                "files": "\(exposed.map { "\($0.path) (\($0.mode))" }.joined(separator: ", "))",
                "fix": "chmod 600 \(exposed.map(\.path).joined(separator: " "))",
            ])
    }
}

/// Log lines for refused peers, at most ``limit`` a minute (a scan must not flood the log); the rest are
/// counted and summarized in the first line of the next minute that has one.
final class RefusalLog: Sendable {
    static let limit = 10
    private let logger: Logger
    private let window = Mutex(RateWindow(limit: limit, length: 60_000))

    init(logger: Logger) { self.logger = logger }

    func record(keyPrefix: String, domain: String) {
        let nowMs = Int64(DispatchTime.now().uptimeNanoseconds / 1_000_000)
        let (log, suppressed) = window.withLock { $0.admit(at: nowMs) }
        guard log else { return }
        let key = keyPrefix.isEmpty ? "none (no CURVE)" : "\(keyPrefix)…"
        var metadata: Logger.Metadata = ["socket": "\(domain)", "key": "\(key)"]
        if suppressed > 0 { metadata["alsoRefusedLastMinute"] = "\(suppressed)" }
        logger.notice("client refused: not on the allow-list", metadata: metadata)
    }
}
