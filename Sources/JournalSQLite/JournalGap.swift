import BridgeCore
import BridgeJournal
import Foundation
import GRDB
import InterApp
import VivaCloudModels

/// `vivabridge journal accept-gap`: the operator's way to serve a journal that is behind the position the
/// bridge recorded beside it (``JournalPosition``), once the missing interval has been reconciled.
public enum JournalGap {
    /// A gap an operator accepted, as recorded in the journal's `meta` table.
    public struct Accepted: Sendable, Equatable {
        /// Who accepted it (`--by`).
        public let by: String
        /// How far the journal had got, and how far the bridge had recorded, as words.
        public let journal: String
        public let recorded: String
        /// The `meta` key the acceptance is kept under.
        public let key: String
    }

    /// The prefix of the `meta` keys that record accepted gaps (one a gap: `gap_accepted_<ms>`).
    static let metaKeyPrefix = "gap_accepted_"

    /// Why the journal at `path` would be refused for its position, or nil when it would not (read-only).
    public static func refusal(path: String) throws -> String? {
        guard let recorded = try JournalPositionFile.read(journal: path) else { return nil }
        let database = try JournalReader.open(path: path)
        defer { try? database.close() }
        let current = try read(database, path: path)
        return current.refusal(against: recorded, path: path)
    }

    /// When the newest command of the journal at `path` was created (ms since 1970), nil when it holds none: where
    /// a restored backup ends, and the gap begins (read-only).
    public static func newestCommandMs(path: String) throws -> Int64? {
        let database = try JournalReader.open(path: path)
        defer { try? database.close() }
        do {
            return try database.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(created_ms) FROM command_log") }
        } catch {
            throw JournalError(path: path, "cannot be read: \(error)")
        }
    }

    /// The most days of Viva's records one fill lists (a backup older than this is reconciled by hand, then
    /// accepted).
    public static let maxFillDays = 62

    /// The UTC days (`YYYY-MM-DD`) of Viva's records a fill lists: from the day before `fromMs` to the day after
    /// `toMs` (Viva dates transactions in the merchant's local time).
    public static func vivaDays(fromMs: Int64, toMs: Int64) -> [String] {
        let day: Int64 = 86_400_000
        let first = (fromMs / day - 1) * day
        let count = Int(((toMs / day + 1) * day - first) / day) + 1
        return (0..<count).map { String(Timestamp.iso8601(ms: first + Int64($0) * day).prefix(10)) }
    }

    /// Accepts the gap between the journal at `path` and the position recorded beside it: records who accepted
    /// which interval in the journal's `meta` table, then records the journal's own position beside it (its
    /// epoch kept past the recorded one). Takes the journal's lock, so it never runs beside a bridge.
    ///
    /// - Returns: what was accepted, or nil when the journal is not behind (nothing is written then).
    /// - Throws: ``JournalError``: a bridge holds the journal, the journal or the position cannot be read.
    public static func accept(path: String, by: String, now: Date = Date()) throws -> Accepted? {
        try close(path: path, by: by, now: now) { _, _ in nil }
    }

    /// Closes the gap of the journal at `path` with Viva's records: every transaction of `transactions` whose
    /// `MerchantTrns` no command of the journal carries (as its id or its `clientTransactionId`) is written in
    /// as a finished command (``FilledCommand``), then the gap is accepted as ``accept(path:by:now:)`` does, in
    /// the same transaction, the record saying what was added. Idempotent: a transaction the journal holds is
    /// never added twice.
    ///
    /// - Returns: what was added and accepted, or nil when the journal is not behind (nothing is written then).
    public static func fill(path: String, by: String, transactions: [DayTransaction], now: Date = Date()) throws
        -> Filled?
    {
        var filled = Filled.Counts()
        let accepted = try close(path: path, by: by, now: now) { db, atMs in
            filled = try write(
                FilledCommand.missing(transactions, known: known(in: db, around: transactions)), db, atMs)
            return filled.record
        }
        return accepted.map { Filled(accepted: $0, counts: filled) }
    }

    /// What a fill added, and the gap it accepted.
    public struct Filled: Sendable, Equatable {
        /// How many of each.
        public struct Counts: Sendable, Equatable {
            /// Commands added, by outcome (`success`, `failure`, `unknown`).
            public var added: [String: Int] = [:]
            /// Their references (`clientTransactionId`), in the order added.
            public var references: [String] = []

            var record: JSONObject {
                var object = JSONObject()
                object["from"] = .string("viva")
                for outcome in ["success", "failure", "unknown"] {
                    object[outcome] = .number(JSONNumber(added[outcome] ?? 0))
                }
                return object
            }
        }

        /// The gap accepted.
        public let accepted: Accepted
        /// What was added.
        public let counts: Counts
    }

    /// The ids and `clientTransactionId`s of the journal's commands created from the day before the earliest
    /// of `transactions` (Viva dates them in the merchant's local time, at most a day off UTC).
    private static func known(in db: Database, around transactions: [DayTransaction]) throws -> Set<String> {
        let earliest = transactions.compactMap { transaction in
            transaction.insDate.flatMap { JournalTimeBound.milliseconds(String($0.prefix(10))) }
        }.min()
        let since = (earliest ?? 0) - 2 * 86_400_000
        var known: Set<String> = []
        let rows = try Row.fetchCursor(
            db, sql: "SELECT id, client_transaction_id FROM command_log WHERE created_ms >= ?", arguments: [since])
        while let row = try rows.next() {
            known.insert(row[0])
            if let reference = row[1] as String? { known.insert(reference) }
        }
        return known
    }

    /// Appends `transactions` as filled commands after the log's last sequence.
    private static func write(_ transactions: [DayTransaction], _ db: Database, _ atMs: Int64) throws -> Filled.Counts {
        var counts = Filled.Counts()
        guard !transactions.isEmpty else { return counts }
        var seq = try JournalPosition.read(db)?.commandSeq ?? 0
        var entries: [JournalEntry] = []
        for transaction in transactions {
            seq += 1
            guard let (command, summary) = FilledCommand.make(transaction, seq: seq, atMs: atMs) else { continue }
            entries.append(.insert(command))
            entries.append(.final(command, summary: summary, late: false, atMs: atMs))
            counts.added[command.outcome?.rawValue ?? "unknown", default: 0] += 1
            counts.references.append(command.id)
        }
        try Journal.write(entries, in: db, with: Journal.LogAppends(db))
        return counts
    }

    /// Takes the lock; when the journal is behind, runs `change` (given the time in ms; what it returns goes into
    /// the record as `filled`), records who accepted which interval and the journal's new position, all in one
    /// transaction, then writes the position beside the journal.
    private static func close(
        path: String, by: String, now: Date, _ change: (Database, Int64) throws -> JSONObject?
    ) throws -> Accepted? {
        let lock = try JournalLock(journal: path)
        defer { lock.release() }
        guard let recorded = try JournalPositionFile.read(journal: path) else { return nil }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw JournalError(path: path, "cannot be opened: \(error)")
        }
        defer { try? database.close() }
        let before = try read(database, path: path)
        guard before.refusal(against: recorded, path: path) != nil else { return nil }
        let ms = Int64((now.timeIntervalSince1970 * 1000).rounded())
        let accepted = Accepted(
            by: by, journal: before.described, recorded: "\(recorded.described) of journal \(recorded.journal)",
            key: "\(metaKeyPrefix)\(ms)")
        var after = before
        do {
            after = try database.write { db in
                var record: JSONObject = [
                    "by": .string(by), "at": .string(Timestamp.iso8601(ms: ms)), "journal": .string(before.line),
                    "recorded": .string(recorded.line),
                ]
                if let filled = try change(db, ms) { record["filled"] = .object(filled) }
                try db.execute(
                    sql: "INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)",
                    arguments: [accepted.key, JSONValue.object(record).serializedString])
                return try JournalPosition.read(db) ?? before
            }
        } catch {
            throw JournalError(path: path, "cannot close the gap: \(error); nothing was changed")
        }
        after.epoch = max(after.epoch, recorded.epoch)
        try JournalPositionFile.write(after, journal: path, durably: true)
        return accepted
    }

    private static func read(_ database: DatabaseQueue, path: String) throws -> JournalPosition {
        let position: JournalPosition?
        do {
            position = try database.read { db in try JournalPosition.read(db) }
        } catch {
            throw JournalError(path: path, "cannot be read: \(error)")
        }
        guard let position else {
            throw JournalError(path: path, "has no identity (not a vivabridge journal, or one never served)")
        }
        return position
    }
}
