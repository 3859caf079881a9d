import Bridge
import Foundation
import LocalPostgres

/// The journal on PostgreSQL beside the journal on SQLite, in the same run: bridge + simulator in closed
/// loops, and paced at a low rate against the raw relay at that rate. The server is a PostgreSQL cluster
/// this section starts for itself (durable: `fsync` and `synchronous_commit` on) and stops at its end.
struct PostgresSection {
    /// The closed loops' shape (lanes, clients, window, seconds); the paced runs take ``pacedRate`` for
    /// ``pacedSeconds``.
    var shape: RunShape
    var pacedRate: Double
    var pacedSeconds: Double
    var log: (String) -> Void

    func run() -> SectionResult {
        var out = SectionResult()
        guard let wire = Wire.probe(encoding: shape.encoding, section: "postgres", into: &out) else { return out }
        log("  postgres: starting a cluster (initdb, pg_ctl) ...")
        let cluster: PostgresCluster
        do {
            cluster = try PostgresCluster.start(durable: true)
        } catch {
            out.failures.append("postgres: cannot start a PostgreSQL cluster: \(error)")
            return out
        }
        // Stopped however the run ends: at the end of the section, or by SIGINT or SIGTERM on the way.
        let stopOnSignal = StopOnSignal { try? cluster.stop() }
        defer {
            stopOnSignal.cancel()
            do { try cluster.stop() } catch { log("postgres: stopping the cluster failed: \(error)") }
        }
        out.notes.append(serverNote(cluster))
        let diskSync: LatencySummary?
        do {
            let sync = try DiskSyncProbe.measure(folder: cluster.folder)
            diskSync = sync
            out.notes.append(
                "postgres: the disk's fdatasync beside the cluster's data, \(sync.count) syncs of 8 KiB: p50 "
                    + "\(Format.micros(sync.p50)), p99 \(Format.micros(sync.p99)), max \(Format.micros(sync.max))")
        } catch {
            diskSync = nil
            out.failures.append("postgres: the disk's fdatasync could not be timed: \(error)")
        }
        out.notes.append("postgres: load average at start \(Self.loadAverage())")

        func measure(_ label: String, _ topology: Topology, paced: Bool, replyBytes: Int = 0) -> RunMeasurement? {
            var runShape = shape
            if paced {
                runShape.pacedRate = pacedRate
                runShape.seconds = pacedSeconds
            }
            let label = label + (paced ? ", paced \(Format.count(pacedRate))/s" : ", closed loops")
            log("  postgres: \(label) ...")
            do {
                let measurement = try TopologyRun.measure(topology, shape: runShape, wire: wire, replyBytes: replyBytes)
                out.notes.append(measurement.cpuNote(label: "postgres: " + label))
                if measurement.nonSuccess > 0 {
                    out.notes.append(
                        "postgres: \(label): \(measurement.nonSuccess) of \(measurement.replies) replies were not "
                            + "success, e.g. \(measurement.firstNonSuccess ?? "?")")
                }
                log(
                    "    \(Format.rate(measurement.salesPerSecond)), p50 \(Format.micros(measurement.latency.p50)), "
                        + "p99 \(Format.micros(measurement.latency.p99)), p99.9 \(Format.micros(measurement.latency.p999))"
                )
                return measurement
            } catch {
                out.failures.append("postgres: \(label): \(error)")
                return nil
            }
        }
        /// A new database for each run on PostgreSQL, as each SQLite run has a new file.
        func onPostgres() -> Topology? {
            do {
                return .bridgeWithSimulatorOnPostgres(journal: try cluster.createDatabase())
            } catch {
                out.failures.append("postgres: cannot create a database: \(error)")
                return nil
            }
        }

        let sqlite = measure("SQLite normal", .bridgeWithSimulator(.normal), paced: false)
        let postgres = onPostgres().flatMap { measure("PostgreSQL", $0, paced: false) }
        let sqliteFull = measure("SQLite full", .bridgeWithSimulator(.full), paced: false)
        let replyBytes = sqlite?.replyBytes ?? 600
        let pacedRaw = measure("raw relay", .raw, paced: true, replyBytes: replyBytes)
        let pacedSQLite = measure("SQLite normal", .bridgeWithSimulator(.normal), paced: true)
        let pacedPostgres = onPostgres().flatMap { measure("PostgreSQL", $0, paced: true) }
        out.notes.append("postgres: load average at end \(Self.loadAverage())")

        if let postgres, let sqlite {
            out.rows += closedRows(postgres, sqlite: sqlite, sqliteFull: sqliteFull)
        }
        if let pacedPostgres, let pacedRaw {
            out.rows += pacedRows(pacedPostgres, raw: pacedRaw, sqlite: pacedSQLite)
            if let diskSync { out.rows.append(diskRow(pacedPostgres, raw: pacedRaw, disk: diskSync)) }
        }
        return out
    }

    private let section = "postgres"
    private static let journal = "journal on PostgreSQL (fsync, synchronous_commit on)"

    private func closedRows(_ postgres: RunMeasurement, sqlite: RunMeasurement, sqliteFull: RunMeasurement?)
        -> [Row]
    {
        let figure = "sales/s, bridge+simulator, \(Self.journal), \(shape.lanes) lanes"
        let ratio = postgres.salesPerSecond / sqlite.salesPerSecond
        var rows = [
            Row(
                section: section, figure: figure, value: Format.rate(postgres.salesPerSecond),
                baseline: "\(Format.rate(sqlite.salesPerSecond)) SQLite normal", ratio: ratio,
                target: ">= 0.25x SQLite", verdict: ratio >= 0.25 ? .met : .notMet)
        ]
        if let sqliteFull {
            rows.append(
                Row(
                    section: section, figure: figure, value: Format.rate(postgres.salesPerSecond),
                    baseline: "\(Format.rate(sqliteFull.salesPerSecond)) SQLite full",
                    ratio: postgres.salesPerSecond / sqliteFull.salesPerSecond))
        }
        rows.append(
            Row(
                section: section, figure: "p99 command->reply, bridge+simulator, \(Self.journal), saturated",
                value: Format.micros(postgres.latency.p99),
                baseline: "\(Format.micros(sqlite.latency.p99)) SQLite normal",
                ratio: postgres.latency.p99 / sqlite.latency.p99))
        return rows
    }

    private func pacedRows(_ postgres: RunMeasurement, raw: RunMeasurement, sqlite: RunMeasurement?) -> [Row] {
        let rate = Format.count(pacedRate)
        let added = postgres.latency.p99 - raw.latency.p99
        let addedTail = postgres.latency.p999 - raw.latency.p999
        let sqliteAdded = sqlite.map { "; SQLite adds \(Format.micros($0.latency.p99 - raw.latency.p99))" } ?? ""
        let sqliteTail = sqlite.map { "; SQLite adds \(Format.micros($0.latency.p999 - raw.latency.p999))" } ?? ""
        return [
            Row(
                section: section, figure: "p99 added by bridge+simulator, \(Self.journal), at \(rate)/s",
                value: Format.micros(added), baseline: "raw p99 \(Format.micros(raw.latency.p99))\(sqliteAdded)",
                ratio: postgres.latency.p99 / raw.latency.p99, target: "<= 5,000 µs",
                verdict: added <= 5000 ? .met : .notMet),
            Row(
                section: section, figure: "p99.9 added by bridge+simulator, \(Self.journal), at \(rate)/s",
                value: Format.micros(addedTail),
                baseline: "raw p99.9 \(Format.micros(raw.latency.p999))\(sqliteTail)",
                ratio: postgres.latency.p999 / raw.latency.p999),
        ]
    }

    /// The paced p99 added as a multiple of the disk's own sync p99: what is left above the floor of the two
    /// synced commits a sale makes (issue 49's goal: at most 2.5x).
    private func diskRow(_ postgres: RunMeasurement, raw: RunMeasurement, disk: LatencySummary) -> Row {
        let added = postgres.latency.p99 - raw.latency.p99
        let multiple = added / disk.p99
        return Row(
            section: section,
            figure: "p99 added at \(Format.count(pacedRate))/s, \(Self.journal), in the disk's fdatasync p99s",
            value: String(format: "%.1fx", multiple),
            baseline: "fdatasync p99 \(Format.micros(disk.p99)) (p50 \(Format.micros(disk.p50)))",
            ratio: multiple, target: "<= 2.5x", verdict: multiple <= 2.5 ? .met : .notMet)
    }

    /// The server as it reports itself: version, and the settings a commit's cost depends on.
    private func serverNote(_ cluster: PostgresCluster) -> String {
        let settings = ["server_version", "fsync", "synchronous_commit", "wal_sync_method", "shared_buffers"]
        let shown = settings.map { name in
            let value = (try? cluster.psql("SHOW \(name)", database: "postgres"))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return "\(name) \(value ?? "?")"
        }
        return "postgres: a cluster started for this run on 127.0.0.1:\(cluster.port), data in \(cluster.folder) "
            + "(\(Machine.fileSystem(of: cluster.folder))), stopped at the end; \(shown.joined(separator: ", ")); "
            + "a new database a run; SQLite beside it in \(shape.journalFolder) "
            + "(\(Machine.fileSystem(of: shape.journalFolder))); paced runs \(pacedSeconds) s measured"
    }

    private static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
            .joined(separator: " ") ?? "?"
    }
}

/// Runs `action` and ends the process on SIGINT or SIGTERM until ``cancel()``: a benchmark stopped by hand
/// leaves no server running behind it.
final class StopOnSignal {
    private let sources: [any DispatchSourceSignal]

    init(_ action: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                action()
                exit(128 + number)
            }
            source.resume()
            return source
        }
    }

    /// Gives the signals back their default action.
    func cancel() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
