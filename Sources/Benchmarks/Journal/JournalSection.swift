import Bridge
import Foundation
import GRDB
import InterApp

/// Section 3: journal commits, one command per transaction against grouped ones, and the bridge's own
/// per-sale pattern (insert; then callback + final update), in WAL with `synchronous` NORMAL and FULL.
struct JournalSection {
    var seconds: Double
    var folder: String
    /// Sales already in the journal when new ids are looked up.
    var journaledSales = 100_000
    var log: (String) -> Void

    /// Realistic row contents: the sale's fingerprint, a callback's fields, a reply.
    private struct Rows {
        let fingerprint: String
        let fields: String
        let reply: String
    }

    func run() -> SectionResult {
        var out = SectionResult()
        let rows: Rows
        do {
            rows = try sampleRows()
        } catch {
            out.failures.append("journal: sample rows: \(error)")
            return out
        }
        out.notes.append(
            "journal: GRDB DatabaseQueue set up as the bridge's (WAL, checkpoints on a thread of their own), its "
                + "schema and statements, a fresh file per case, "
                + "\(seconds) s per case; row sizes: fingerprint \(rows.fingerprint.utf8.count) B, "
                + "callback fields \(rows.fields.utf8.count) B, reply \(rows.reply.utf8.count) B; new ids looked up in "
                + "a journal of \(Format.count(Double(journaledSales))) sales")

        func inserts(_ sync: JournalSchema.Sync, perCommit: Int, viaWrite: Bool = true) -> (
            rows: Double, commits: Double
        )? {
            log("  journal: inserts, \(perCommit) per commit, synchronous \(sync.rawValue) ...")
            do {
                return try measureInserts(sync: sync, perCommit: perCommit, rows: rows, viaWrite: viaWrite)
            } catch {
                out.failures.append("journal: inserts \(perCommit)/commit \(sync.rawValue): \(error)")
                return nil
            }
        }
        func describe(_ result: (rows: Double, commits: Double)) -> String {
            "\(Format.rate(result.rows)) rows, \(Format.rate(result.commits)) commits, "
                + "\(Format.micros(1e6 / result.rows))/row"
        }

        let off = inserts(.off, perCommit: 1)
        let plainNormal = inserts(.normal, perCommit: 1, viaWrite: false)
        for sync in [JournalSchema.Sync.normal, .full] {
            guard let single = inserts(sync, perCommit: 1) else { continue }
            if sync == .normal, let plainNormal {
                out.rows.append(
                    Row(
                        section: "journal", figure: "inserts, 1 per commit via DatabaseQueue.write, sync normal",
                        value: describe(single), baseline: "\(Format.rate(plainNormal.rows)) cached BEGIN/COMMIT",
                        ratio: single.rows / plainNormal.rows))
            }
            let baseline: (String, Double)? =
                sync == .normal
                ? off.map { ("\(Format.rate($0.rows)) sync off", $0.rows) }
                : nil
            out.rows.append(
                Row(
                    section: "journal", figure: "inserts, 1 per commit, sync \(sync.rawValue.lowercased())",
                    value: describe(single), baseline: baseline?.0 ?? "-",
                    ratio: baseline.map { single.rows / $0.1 }))
            for group in [64, 256] {
                guard let grouped = inserts(sync, perCommit: group) else { continue }
                out.rows.append(
                    Row(
                        section: "journal", figure: "inserts, \(group) per commit, sync \(sync.rawValue.lowercased())",
                        value: describe(grouped), baseline: "\(Format.rate(single.rows)) at 1/commit",
                        ratio: grouped.rows / single.rows))
            }
            log("  journal: per-sale pattern, synchronous \(sync.rawValue) ...")
            do {
                let exact = try measureSales(sync: sync, salesPerCommit: 1, lookup: .plain, rows: rows)
                let grouped = try measureSales(sync: sync, salesPerCommit: 64, lookup: .plain, rows: rows)
                out.rows.append(
                    Row(
                        section: "journal",
                        figure:
                            "sales as the bridge journals them (look-up + 2 commits), \(sync.rawValue.lowercased())",
                        value: "\(Format.rate(exact)), \(Format.micros(1e6 / exact))/sale",
                        baseline: "\(Format.rate(grouped)) at 64 sales/commit", ratio: exact / grouped))
            } catch {
                out.failures.append("journal: per-sale pattern \(sync.rawValue): \(error)")
            }
        }
        log("  journal: id look-ups ...")
        do {
            let viaRead = try measureLookups(plain: false, rows: rows)
            let plain = try measureLookups(plain: true, rows: rows)
            out.rows.append(
                Row(
                    section: "journal", figure: "look-up of a new id (Journal.command(id:): plain SELECT)",
                    value: "\(Format.rate(plain)), \(Format.micros(1e6 / plain))/look-up",
                    baseline: "\(Format.rate(viaRead)) via DatabaseQueue.read", ratio: plain / viaRead))
            let fromMemory = measureFilterChecks()
            out.rows.append(
                Row(
                    section: "journal", figure: "a new id known new from memory (CommandIndex, the bridge now)",
                    value: "\(Format.rate(fromMemory)), \(Format.micros(1e6 / fromMemory))/check",
                    baseline: "\(Format.rate(plain)) plain SELECT", ratio: fromMemory / plain))
        } catch {
            out.failures.append("journal: look-ups: \(error)")
        }
        return out
    }

    /// Look-ups of ids that are not there (every new command's case) in a journal of `journaledSales`, as one
    /// plain SELECT (the bridge now), or through `DatabaseQueue.read` (query_only on, savepoint, SELECT, release,
    /// query_only off: the bridge until November 2026; the pragma expires every cached statement).
    private func measureLookups(plain: Bool, rows: Rows) throws -> Double {
        try withFreshJournal(.normal) { queue in
            let filled = journaledSales
            try queue.write { db in
                let insert = try db.cachedStatement(sql: JournalSchema.insertCommand)
                for n in 1...filled {
                    let id = Self.id(n)
                    try insert.execute(arguments: [
                        n, id, Wire.laneId(n % 64), "sale", rows.fingerprint, id, nil, 1_700_000_000_000 + n, nil,
                    ])
                }
            }
            var next = filled
            var found = 0
            let start = Monotonic.now()
            let end = start + UInt64(seconds * 1e9)
            var now = start
            while now < end {
                for _ in 0..<100 {
                    next += 1
                    let row: GRDB.Row?
                    if plain {
                        row = try queue.inDatabase { db in
                            try GRDB.Row.fetchOne(db.cachedStatement(sql: JournalSchema.lookup), arguments: [next])
                        }
                    } else {
                        row = try queue.read { db in
                            try GRDB.Row.fetchOne(db.cachedStatement(sql: JournalSchema.lookup), arguments: [next])
                        }
                    }
                    if row != nil { found += 1 }
                }
                now = Monotonic.now()
            }
            blackHole(found)
            return Double(next - filled) / Monotonic.seconds(now - start)
        }
    }

    /// Checks of ids that are not there against the bridge's in-memory filter of a journal of
    /// `journaledSales` ids: what the bridge does for a new command before any SELECT.
    private func measureFilterChecks() -> Double {
        var filter = CommandIndex(capacity: journaledSales * 2)
        for n in 1...journaledSales { filter.insert(Self.id(n), at: Int64(n)) }
        var next = journaledSales
        var maybe = 0
        let start = Monotonic.now()
        let end = start + UInt64(seconds * 1e9)
        var now = start
        while now < end {
            for _ in 0..<1000 {
                next += 1
                if filter.mayContain(Self.id(next)) { maybe += 1 }
            }
            now = Monotonic.now()
        }
        blackHole(maybe)
        return Double(next - journaledSales) / Monotonic.seconds(now - start)
    }

    private func sampleRows() throws -> Rows {
        let json = Wire.saleJSON(id: Wire.sampleId, lane: 0)
        let command = try CommandDecoder().decode(Array(json.utf8))
        let callback = try CallbackParser.parse(SampleInputs.callbacks[0])
        var fields = callback.result
        fields["status"] = .string(callback.status)
        fields["message"] = .string(callback.message)
        var reply = JSONObject()
        reply["id"] = .string(Wire.sampleId)
        reply["lane"] = .string(Wire.laneId(0))
        reply["action"] = .string("sale")
        reply["outcome"] = .string("success")
        reply["message"] = .string(callback.message)
        reply["result"] = .object(callback.result)
        reply["late"] = .bool(false)
        return Rows(
            fingerprint: command.fingerprint, fields: JSONValue.object(fields).serializedString,
            reply: JSONValue.object(reply).serializedString)
    }

    private func withFreshJournal<T>(_ sync: JournalSchema.Sync, _ body: (DatabaseQueue) throws -> T) throws -> T {
        let path = (folder as NSString).appendingPathComponent("bench-journal-\(UUID().uuidString).sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let queue = try JournalSchema.open(path: path, sync: sync)
        let checkpointer = try JournalSchema.Checkpointer(path: path)
        defer { checkpointer.stop() }
        return try body(queue)
    }

    private static func id(_ n: Int) -> String { CommandId.text(client: 0, lane: n % 64, sequence: n) }

    /// Inserts per second and commits per second; `viaWrite` commits through `DatabaseQueue.write` as the
    /// bridge does, else through cached `BEGIN` and `COMMIT` statements (what GRDB's wrapper costs).
    private func measureInserts(sync: JournalSchema.Sync, perCommit: Int, rows: Rows, viaWrite: Bool = true) throws
        -> (rows: Double, commits: Double)
    {
        try withFreshJournal(sync) { queue in
            var next = 0
            var commits = 0
            let start = Monotonic.now()
            let end = start + UInt64(seconds * 1e9)
            var now = start
            func insert(_ db: Database) throws {
                let statement = try db.cachedStatement(sql: JournalSchema.insertCommand)
                for _ in 0..<perCommit {
                    next += 1
                    let id = Self.id(next)
                    try statement.execute(arguments: [
                        next, id, Wire.laneId(next % 64), "sale", rows.fingerprint, id, 1_700_000_120_000 + next,
                        1_700_000_000_000 + next, nil,
                    ])
                }
            }
            while now < end {
                if viaWrite {
                    try queue.write(insert)
                } else {
                    try queue.inDatabase { db in
                        try db.cachedStatement(sql: "BEGIN IMMEDIATE").execute()
                        try insert(db)
                        try db.cachedStatement(sql: "COMMIT").execute()
                    }
                }
                commits += 1
                now = Monotonic.now()
            }
            let elapsed = Monotonic.seconds(now - start)
            return (Double(next) / elapsed, Double(commits) / elapsed)
        }
    }

    /// How a sale's id is looked up before it is journaled.
    enum Lookup {
        /// `DatabaseQueue.read`, as `Journal.command(id:)` did until November 2026.
        case read
        /// The same SELECT outside a transaction (`inDatabase`), as `Journal.command(id:)` does now.
        case plain
    }

    /// Sales per second when each sale is journaled as the bridge does: a look-up of its new id, the insert in
    /// one commit, the callback and the final update in another; `salesPerCommit` > 1 groups that many
    /// sales' writes per commit (the look-ups stay one per sale).
    private func measureSales(sync: JournalSchema.Sync, salesPerCommit: Int, lookup: Lookup, rows: Rows) throws
        -> Double
    {
        try withFreshJournal(sync) { queue in
            var next = 0
            let start = Monotonic.now()
            let end = start + UInt64(seconds * 1e9)
            var now = start
            while now < end {
                let first = next + 1
                for n in first..<(first + salesPerCommit) {
                    let found: GRDB.Row?
                    switch lookup {
                    case .read:
                        found = try queue.read { db in
                            try GRDB.Row.fetchOne(db.cachedStatement(sql: JournalSchema.lookup), arguments: [n])
                        }
                    case .plain:
                        found = try queue.inDatabase { db in
                            try GRDB.Row.fetchOne(db.cachedStatement(sql: JournalSchema.lookup), arguments: [n])
                        }
                    }
                    if found != nil { throw BenchError("sale \(n) is already journaled") }
                }
                try queue.write { db in
                    let insert = try db.cachedStatement(sql: JournalSchema.insertCommand)
                    for n in first..<(first + salesPerCommit) {
                        let id = Self.id(n)
                        try insert.execute(arguments: [
                            n, id, Wire.laneId(n % 64), "sale", rows.fingerprint, id, 1_700_000_120_000 + n,
                            1_700_000_000_000 + n, nil,
                        ])
                    }
                }
                try queue.write { db in
                    let callback = try db.cachedStatement(sql: JournalSchema.insertCallback)
                    let final = try db.cachedStatement(sql: JournalSchema.finalUpdate)
                    for n in first..<(first + salesPerCommit) {
                        let id = Self.id(n)
                        try callback.execute(arguments: [
                            Wire.laneId(n % 64), 1_700_000_000_001 + n, rows.fields, id, n, "matched",
                            n, Int64(truncatingIfNeeded: UInt64(n) &* 0x9E37_79B9_7F4A_7C15),
                        ])
                        try final.execute(arguments: [
                            n, Wire.laneId(n % 64), "sale", id, "success", rows.reply, false, 1_700_000_000_001 + n,
                            1000, 0, nil, nil, "123456", "1234567890123456", "476173******0010", "1", nil, nil, nil,
                        ])
                    }
                }
                next += salesPerCommit
                now = Monotonic.now()
            }
            return Double(next) / Monotonic.seconds(now - start)
        }
    }
}
