import BridgeCore
import BridgeJournal
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Synchronization
import ZeroMQ

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
package final class PostgresLink: Sendable {
    let address: PostgresAddress
    /// What the connection is for, in the server's `application_name` (`vivabridge-journal`, `vivabridge-writer`).
    let role: String
    private let connection = Mutex<PostgresConnection?>(nil)
    /// Whether ``run(prepared:)`` prepares its statement; false once the server (a pooler) lost one.
    private let preparing = Atomic<Bool>(true)
    private let logger: Logger

    /// Idle seconds before the first keepalive probe, seconds between probes, and probes unanswered before the
    /// connection counts as dead: about 11 s in all; data unacknowledged for ``deadPeerSeconds`` closes it too.
    static let keepalive = (idle: 5, interval: 2, count: 3)
    static let deadPeerSeconds = 11
    static let connectTimeoutSeconds: Int64 = 10
    /// How often a statement's waiter asks whether its connection closed (``answer(_:on:graceMs:)``).
    static let answerCheckMs = 1000
    /// How long after its connection closed a statement's answer may still come (``answer(_:on:graceMs:)``).
    static let answerGraceMs = 500
    /// The same for ``run(prepared:)``, whose answer takes one more thread hop to reach its waiter: long, so
    /// that a busy machine's late hop never turns a commit that was written into one reported failed.
    static let preparedGraceMs = 5000
    /// PostgreSQL's SQLSTATE for a prepared statement the server connection does not have.
    static let unknownStatementState = "26000"
    /// Where the tasks of ``run(prepared:)`` run, for the whole process.
    private static let preparedRuns = ThreadTaskExecutor(name: "postgres-prepared")

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
            return try Self.answer(open.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger), on: open)
                .rows
        } catch {
            throw PostgresProblem(error, address: address)
        }
    }

    /// Runs `statement`, prepared on this connection at its first run (PostgresNIO keeps it, and prepares it
    /// again on a new connection), for a statement run at every commit: PostgreSQL parses it once, not each
    /// time (docs/PERFORMANCE.md, "PostgreSQL"). PostgresNIO runs prepared statements from a task only: this
    /// thread waits for that task's answer.
    ///
    /// - Throws: ``PostgresProblem`` saying what PostgreSQL or the connection said.
    func run<Statement: PostgresPreparedStatement>(prepared statement: Statement) throws
    where Statement.Row == () {
        guard preparing.load(ordering: .relaxed) else {
            try query(Statement.sql, try statement.makeBindings())
            return
        }
        let open: PostgresConnection
        do {
            open = try connected()
        } catch {
            throw PostgresProblem(error, address: address)
        }
        let logger = logger
        let ran = open.eventLoop.makePromise(of: Void.self)
        // On a thread of its own, not Swift's cooperative pool: a caller blocking a pool thread (a journal
        // command, a test) must not wait for a task that needs one. Its rows are read to the end (none, or the
        // one that fails it), as PostgresNIO asks.
        Task(executorPreference: Self.preparedRuns) {
            do {
                for try await _ in try await open.execute(statement, logger: logger) {}
                ran.succeed()
            } catch {
                ran.fail(error)
            }
        }
        do {
            _ = try Self.answer(ran.futureResult, on: open, graceMs: Self.preparedGraceMs)
        } catch {
            let problem = PostgresProblem(error, address: address)
            if problem.sqlState == Self.unknownStatementState {
                // Bind reached another server connection than Parse (a pooler in transaction mode without
                // prepared statements): nothing ran. This link stops preparing, and runs it unnamed now.
                preparing.store(false, ordering: .relaxed)
                try query(Statement.sql, try statement.makeBindings())
                return
            }
            // PostgresNIO keeps a failed preparation for the connection's life: a new connection prepares anew.
            if problem.sqlState != PostgresLeaseSQL.lostState { close() }
            throw problem
        }
    }

    /// Runs one statement, calling `onRow` for each row as it arrives (on an event loop's thread): a long
    /// result without holding it all in memory.
    func forEachRow(_ sql: String, _ onRow: @escaping @Sendable (PostgresRow) throws -> Void) throws {
        do {
            let open = try connected()
            _ = try Self.answer(open.query(PostgresQuery(unsafeSQL: sql), logger: logger, onRow), on: open)
        } catch {
            throw PostgresProblem(error, address: address)
        }
    }

    /// Waits for `future`, a statement's answer on `open`, or until `open` closed without answering: a
    /// statement handed to a connection that closed just before (the server restarted, the network cut it)
    /// is never answered, and the caller must not wait for it forever. Whether the connection closed is
    /// asked every ``answerCheckMs`` of waiting (nothing is attached to the connection a call, so a
    /// connection that lasts the process gathers nothing); once it has, an answer already on its way
    /// (a task that holds it, ``run(prepared:)``) still wins within `graceMs`.
    ///
    /// - Throws: what the statement failed with, or `PostgresError.connectionClosed`.
    private static func answer<T: Sendable>(
        _ future: EventLoopFuture<T>, on open: PostgresConnection, graceMs: Int = answerGraceMs
    ) throws -> T {
        precondition(MultiThreadedEventLoopGroup.currentEventLoop == nil, "a PostgreSQL call waited on an event loop")
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let settled = DispatchSemaphore(value: 0)
        future.whenComplete { result in
            outcome.withLock { $0 = $0 ?? result }
            settled.signal()
        }
        var closed = false
        while settled.wait(timeout: .now() + .milliseconds(closed ? graceMs : answerCheckMs)) == .timedOut {
            guard closed else {
                closed = open.isClosed
                continue
            }
            let gaveUp = outcome.withLock { outcome -> Bool in
                guard outcome == nil else { return false }
                outcome = .failure(PostgresError.connectionClosed)
                return true
            }
            if gaveUp { break }
        }
        return try outcome.withLock { $0! }.get()
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
    let description: String
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
