import BridgeCore
import BridgeJournal
import Foundation

/// Where a journal on PostgreSQL lives: `journal: postgresql://USER@HOST:PORT/DBNAME` (or `postgres://`).
///
/// The password never sits in the URL (a configuration file is read by more people than a secret should
/// be): it comes from `journalPasswordFile:` (``JournalPassword``), else `VIVABRIDGE_JOURNAL_PASSWORD`, else
/// `PGPASSWORD`. ``location`` (logs, events, errors) never shows it.
public struct PostgresAddress: Sendable, Equatable {
    /// How the connection uses TLS (`sslmode` as libpq names it).
    public enum TLSMode: String, Sendable, Equatable, CaseIterable {
        /// Never.
        case disable
        /// When the server offers it, without checking its certificate (libpq's default).
        case prefer
        /// Always, without checking the certificate.
        case require
        /// Always, checking the certificate against the system's authorities, not the host name.
        case verifyCA = "verify-ca"
        /// Always, checking the certificate and that it names the host.
        case verifyFull = "verify-full"
    }

    public var user: String
    public var host: String
    public var port: Int
    public var database: String
    public var tls: TLSMode
    /// From `journalPasswordFile:` or the environment, never from the URL.
    package var password: String?

    /// The environment variables the password is read from, first set wins.
    public static let passwordVariables = ["VIVABRIDGE_JOURNAL_PASSWORD", "PGPASSWORD"]

    /// The URL without password, for log lines, events and error messages.
    public var location: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let query = tls == .prefer ? "" : "?sslmode=\(tls.rawValue)"
        return "postgresql://\(user)@\(shownHost):\(port)/\(database)\(query)"
    }

    /// Whether `journal` names a PostgreSQL database rather than a SQLite file.
    public static func isURL(_ journal: String) -> Bool {
        let lowered = journal.lowercased()
        return lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://")
    }

    /// Reads a `journal:` URL, and the password: `password` (read from `journalPasswordFile:`) when given,
    /// else from `environment`.
    ///
    /// - Throws: ``ConfigurationError`` for `journal` naming what is wrong (never echoing a password).
    public init(url text: String, password: JournalPassword? = nil, environment: [String: String] = [:])
        throws(ConfigurationError)
    {
        guard Self.isURL(text), let components = URLComponents(string: text), let host = components.host,
            !host.isEmpty
        else {
            throw ConfigurationError(
                key: "journal",
                "is not a PostgreSQL URL of the form postgresql://USER@HOST:PORT/DBNAME (docs/CONFIG.md)")
        }
        guard components.password == nil else {
            throw ConfigurationError(
                key: "journal",
                "holds a password; a password never sits in the configuration: remove it from the URL and give it "
                    + "in journalPasswordFile (a file of mode 600), or set VIVABRIDGE_JOURNAL_PASSWORD (or "
                    + "PGPASSWORD) in the bridge's environment")
        }
        guard let user = components.user, !user.isEmpty else {
            throw ConfigurationError(
                key: "journal", "names no user: write postgresql://USER@HOST:PORT/DBNAME (docs/CONFIG.md)")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw ConfigurationError(
                key: "journal", "names no database: write postgresql://USER@HOST:PORT/DBNAME (docs/CONFIG.md)")
        }
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    throw ConfigurationError(
                        key: "journal",
                        "sslmode must be one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                tls = mode
            default:
                throw ConfigurationError(
                    key: "journal", "the URL option \(item.name) is not supported; the one known is sslmode")
            }
        }
        self.user = user.removingPercentEncoding ?? user
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        self.port = components.port ?? 5432
        self.database = database.removingPercentEncoding ?? database
        self.tls = tls
        self.password =
            password?.value ?? Self.passwordVariables.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
    }
}
