import Foundation
import LoopbackPorts

/// A PostgreSQL 15 cluster of the process's own, for the tests and the benchmark (Debian's `postgresql`
/// package, `scripts/setup-deps`): `initdb` into a temporary folder, `pg_ctl start` on a free loopback port with
/// trust authentication on loopback, one for the whole process (``shared()``), stopped when the process exits.
/// Each test takes a database of its own (``createDatabase()``).
///
/// The server refuses to run as root: as root (CI), `initdb` and `pg_ctl` run as the `postgres` user, in a
/// folder it owns.
public final class PostgresCluster: Sendable {
    /// The package's binaries: PostgreSQL 15's (Debian 12), else the newest version installed.
    public static let binaries: String = {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init)
        let chosen = versions.contains(15) ? 15 : versions.max() ?? 15
        return "\(root)/\(chosen)/bin"
    }()
    /// The cluster's port on 127.0.0.1.
    public let port: Int
    /// The temporary folder holding the data directory, the log and the server's socket.
    public let folder: String
    private var dataDirectory: String { folder + "/data" }

    /// Why the cluster could not be started or used, with what the command said.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The process's cluster, started at the first call and stopped when the process exits.
    public static func shared() throws -> PostgresCluster { try started.get() }

    private static let started: Result<PostgresCluster, any Error> = Result {
        let cluster = try PostgresCluster()
        atexit { try? PostgresCluster.shared().stop() }
        return cluster
    }

    /// A cluster of the caller's own, stopped by ``stop()`` (not at exit). `durable` runs it as a production
    /// server would (`fsync` and `synchronous_commit` on: a commit waits for its WAL on disk), for benchmarks;
    /// otherwise as the tests' (no fsync).
    public static func start(durable: Bool) throws -> PostgresCluster { try PostgresCluster(durable: durable) }

    /// A cluster of the caller's own with server `settings` (`name=value`, such as `wal_level=logical`), for
    /// a test that needs two servers or a setting the shared one lacks; the caller stops it (``stop()``).
    public static func dedicated(settings: [String]) throws -> PostgresCluster {
        try PostgresCluster(settings: settings)
    }

    private init(durable: Bool = false, settings: [String] = []) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binaries + "/pg_ctl") else {
            throw Failure(
                description: "no PostgreSQL at \(Self.binaries): run scripts/setup-deps (it installs postgresql)")
        }
        folder = try Self.makeFolder()
        let held = try LoopbackPort(listening: false)
        port = Int(held.endpoint.split(separator: ":").last!)!
        try Self.asServerUser([
            Self.binaries + "/initdb", "-D", folder + "/data", "-U", "postgres", "--auth=trust", "--no-sync",
            "--encoding=UTF8", "--locale=C",
        ])
        held.release()
        // No fsync for the tests: a test cluster need not survive a power loss, and its commits are then cheap.
        let sync = durable ? "-c fsync=on -c synchronous_commit=on" : "-c fsync=off"
        let options =
            "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 \(sync) -c max_connections=200"
            + settings.map { " -c \($0)" }.joined()
        try Self.asServerUser([
            Self.binaries + "/pg_ctl", "start", "-w", "-t", "60", "-D", folder + "/data", "-l", folder + "/server.log",
            "-o", options,
        ])
    }

    /// A temporary folder the server's user owns (0700).
    private static func makeFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-pg-\(UUID().uuidString.prefix(8))"
        ).path
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        if geteuid() == 0 { try run(["/bin/chown", "postgres:postgres", folder]) }
        return folder
    }

    /// A new, empty database; returns its journal URL (`postgresql://postgres@127.0.0.1:PORT/NAME`).
    public func createDatabase() throws -> String {
        let name = "journal_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "_"))"
        try psql("CREATE DATABASE \(name)", database: "postgres")
        return url(database: name)
    }

    /// A login role `name` whose connections must give `password` (SCRAM), however the cluster trusts the
    /// others: its rule goes first in `pg_hba.conf`, and the configuration is reloaded; returns once a
    /// connection with another password is refused.
    public func createRole(_ name: String, password: String) throws {
        try psql("CREATE ROLE \(name) LOGIN SUPERUSER PASSWORD '\(password)'", database: "postgres")
        let rules = dataDirectory + "/pg_hba.conf"
        let existing = try String(contentsOfFile: rules, encoding: .utf8)
        try ("host all \(name) 127.0.0.1/32 scram-sha-256\n" + existing).write(
            toFile: rules, atomically: false, encoding: .utf8)
        try psql("SELECT pg_reload_conf()", database: "postgres")
        // The server reloads on its own time: wait until the rule holds.
        let deadline = Date().addingTimeInterval(30)
        while (try? Self.run(psqlArguments("SELECT 1", database: "postgres", user: name), password: "not-it")) != nil {
            guard Date() < deadline else {
                throw Failure(description: "pg_hba.conf's rule for \(name) did not take effect within 30 s")
            }
            usleep(20_000)
        }
    }

    /// The journal URL of `database`.
    public func url(database: String) -> String { "postgresql://postgres@127.0.0.1:\(port)/\(database)" }

    /// Runs `sql` with `psql` on `database` (the name, or a URL of this cluster); returns its unaligned output.
    @discardableResult
    public func psql(_ sql: String, database: String) throws -> String {
        try Self.run(psqlArguments(sql, database: database, user: "postgres"))
    }

    private func psqlArguments(_ sql: String, database: String, user: String) -> [String] {
        let name = database.split(separator: "/").last.map(String.init) ?? database
        return [
            Self.binaries + "/psql", "-X", "-q", "-A", "-t", "-w", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p",
            "\(port)", "-U", user, "-d", name, "-c", sql,
        ]
    }

    /// A cluster of the caller's own, not ``shared()``: for a test that stops it (``stopImmediately()``).
    public static func dedicated() throws -> PostgresCluster { try PostgresCluster() }

    /// Stops the server as a crash would (`pg_ctl stop -m immediate`: every connection cut, no checkpoint) and
    /// removes its folder.
    public func stopImmediately() throws {
        try Self.asServerUser([Self.binaries + "/pg_ctl", "stop", "-w", "-m", "immediate", "-D", dataDirectory])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Stops the server (fast shutdown) and removes its folder.
    public func stop() throws {
        try Self.asServerUser([Self.binaries + "/pg_ctl", "stop", "-w", "-m", "fast", "-D", dataDirectory])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs `arguments` as the `postgres` user when this process is root, else as itself.
    private static func asServerUser(_ arguments: [String]) throws {
        try run(geteuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + arguments : arguments)
    }

    /// Closes every descriptor but 0, 1 and 2, then runs its arguments: the server `pg_ctl` starts would
    /// otherwise keep the test process's sockets and pipes open as long as it runs (Foundation's `Process`
    /// passes them on), and a socket a test closes would stay open for its peer.
    private static let closingDescriptors =
        #"for fd in /proc/$$/fd/*; do n=${fd##*/}; if [ "$n" -gt 2 ]; then eval "exec $n>&-"; fi; done; exec "$@""#

    /// Runs a command to its end; returns its output (standard output and error), or throws with it when it
    /// fails. The output goes to a file: ``closingDescriptors`` keeps 1 and 2, which the server's shell sets
    /// to its log anyway.
    @discardableResult
    private static func run(_ command: [String], password: String? = nil) throws -> String {
        let arguments = ["/bin/bash", "-c", closingDescriptors, "bash"] + command
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pg-run-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
            throw Failure(description: "cannot create \(output.path)")
        }
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: "/tmp")
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        if let password {
            process.environment = ProcessInfo.processInfo.environment.merging(["PGPASSWORD": password]) { $1 }
        }
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "\(command.joined(separator: " ")) exited \(process.terminationStatus): \(text)")
        }
        return text
    }
}
