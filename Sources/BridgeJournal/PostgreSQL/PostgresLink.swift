import BridgeCore
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Synchronization

/// One connection to the journal's PostgreSQL database, used by blocking calls from one thread at a time
/// (the bridge's loop, or the journal writer's thread), never from an event loop's: each call waits for its
/// answer on a thread of NIO's own group.
///
/// A connection the server or the network closed is opened again at the next call: the call that found it
/// lost throws (the bridge refuses commands `journal_unavailable` and retries, as for a failed SQLite write),
/// and the journal works again once PostgreSQL answers.
///
/// TCP keepalives and `tcp_user_timeout` are set on both ends, so that a peer gone without closing (a host
/// down, a cable pulled) is noticed within ``deadPeerSeconds`` rather than after the kernel's two hours.
final class PostgresLink: Sendable {
    package let address: PostgresAddress
    /// What the connection is for, in the server's `application_name` (`vivabridge-journal`, `vivabridge-writer`).
    package let role: String
    private let connection = Mutex<PostgresConnection?>(nil)
    private let logger: Logger

    /// Idle seconds before the first keepalive probe, seconds between probes, and probes unanswered before the
    /// connection counts as dead: about 11 s in all; data unacknowledged for ``deadPeerSeconds`` closes it too.
    static let keepalive = (idle: 5, interval: 2, count: 3)
    static let deadPeerSeconds = 11
    static let connectTimeoutSeconds: Int64 = 10

    /// Connects at once: a journal that cannot be reached is refused at start.
    package init(address: PostgresAddress, role: String) throws {
        self.address = address
        self.role = role
        var logger = Logger(label: "vivabridge.postgres")
        logger.logLevel = .critical
        self.logger = logger
        _ = try connected()
    }

    /// Connects to the journal's database for `role`, or throws what a person can act on.
    ///
    /// - Throws: ``JournalError`` naming the database (never its password), what PostgreSQL or the network
    ///   said, and what to check.
    package static func journal(_ address: PostgresAddress, role: String) throws -> PostgresLink {
        do {
            return try PostgresLink(address: address, role: role)
        } catch {
            throw JournalError(
                path: address.location,
                "cannot connect: \(PostgresProblem(error, address: address)). Check that PostgreSQL runs and "
                    + "listens there, that the user and database exist, and the password (journalPasswordFile, "
                    + "\(PostgresAddress.passwordVariables.joined(separator: " or ")))")
        }
    }

    /// The connection, opened again when it was lost.
    private func connected() throws -> PostgresConnection {
        if let open = connection.withLock({ $0 }), !open.isClosed { return open }
        let opened = try Self.connect(address, role: role, logger: logger)
        connection.withLock { $0 = opened }
        return opened
    }

    /// Runs one statement (`$1`, `$2`… bound from `binds`) and returns its rows.
    ///
    /// - Throws: ``PostgresProblem`` saying what PostgreSQL or the connection said.
    @discardableResult
    package func query(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> [PostgresRow] {
        let open: PostgresConnection
        do {
            open = try connected()
        } catch {
            throw PostgresProblem(error, address: address)
        }
        do {
            return try open.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).wait().rows
        } catch {
            throw PostgresProblem(error, address: address)
        }
    }

    /// Runs one statement, calling `onRow` for each row as it arrives (on an event loop's thread): a long
    /// result without holding it all in memory.
    func forEachRow(_ sql: String, _ onRow: @escaping @Sendable (PostgresRow) throws -> Void) throws {
        do {
            _ = try connected().query(PostgresQuery(unsafeSQL: sql), logger: logger, onRow).wait()
        } catch {
            throw PostgresProblem(error, address: address)
        }
    }

    /// Closes the connection; a later call opens another.
    package func close() {
        let open = connection.withLock { connection -> PostgresConnection? in
            defer { connection = nil }
            return connection
        }
        try? open?.close().wait()
    }

    /// Opens a TCP connection with keepalives and a user timeout, then PostgreSQL's session on it.
    private static func connect(_ address: PostgresAddress, role: String, logger: Logger) throws
        -> PostgresConnection
    {
        let tcp = NIOBSDSocket.OptionLevel.tcp
        let channel = try ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(connectTimeoutSeconds))
            .channelOption(ChannelOptions.socketOption(.so_keepalive), value: 1)
            .channelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .channelOption(
                ChannelOptions.Types.SocketOption(level: tcp, name: .init(rawValue: TCP_KEEPIDLE)),
                value: SocketOptionValue(keepalive.idle)
            )
            .channelOption(
                ChannelOptions.Types.SocketOption(level: tcp, name: .init(rawValue: TCP_KEEPINTVL)),
                value: SocketOptionValue(keepalive.interval)
            )
            .channelOption(
                ChannelOptions.Types.SocketOption(level: tcp, name: .init(rawValue: TCP_KEEPCNT)),
                value: SocketOptionValue(keepalive.count)
            )
            .channelOption(
                ChannelOptions.Types.SocketOption(level: tcp, name: .init(rawValue: TCP_USER_TIMEOUT)),
                value: SocketOptionValue(deadPeerSeconds * 1000)
            )
            .connect(host: address.host, port: address.port).wait()
        var configuration = PostgresConnection.Configuration(
            establishedChannel: channel, tls: try tls(address), username: address.user, password: address.password,
            database: address.database)
        if address.tls != .disable { configuration.options.tlsServerName = address.host }
        // The server's end of the same connection: it notices a bridge gone without closing as soon.
        configuration.options.additionalStartupParameters = [
            ("application_name", "vivabridge-\(role)"),
            ("tcp_keepalives_idle", "\(keepalive.idle)"),
            ("tcp_keepalives_interval", "\(keepalive.interval)"),
            ("tcp_keepalives_count", "\(keepalive.count)"),
            ("tcp_user_timeout", "\(deadPeerSeconds * 1000)"),
        ]
        do {
            return try PostgresConnection.connect(
                on: channel.eventLoop, configuration: configuration, id: 0, logger: logger
            ).wait()
        } catch {
            try? channel.close().wait()
            throw error
        }
    }

    private static func tls(_ address: PostgresAddress) throws -> PostgresConnection.Configuration.TLS {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch address.tls {
        case .disable: return .disable
        case .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        let context = try NIOSSLContext(configuration: configuration)
        return address.tls == .prefer ? .prefer(context) : .require(context)
    }
}

/// What PostgreSQL or the connection to it said, in words: the server's message and SQLSTATE, or what
/// happened to the connection. Never the password; the statement's values are not shown either.
struct PostgresProblem: Error, CustomStringConvertible {
    package let description: String
    /// The server's SQLSTATE, when the server refused the statement.
    let sqlState: String?
    /// The server's detail, when it gave one.
    var detail: String?

    package init(_ error: any Error, address: PostgresAddress) {
        if let problem = error as? PostgresProblem {
            self = problem
            return
        }
        guard let error = error as? PSQLError else {
            description = "PostgreSQL at \(address.location): \(error)"
            sqlState = nil
            return
        }
        sqlState = error.serverInfo?[.sqlState]
        detail = error.serverInfo?[.detail]
        if let message = error.serverInfo?[.message] {
            description = "PostgreSQL at \(address.location) said: \(message) (SQLSTATE \(sqlState ?? "-"))"
        } else if let underlying = error.underlying {
            description = "PostgreSQL at \(address.location): \(error.code) (\(underlying))"
        } else {
            description = "PostgreSQL at \(address.location): \(error.code)"
        }
    }
}
