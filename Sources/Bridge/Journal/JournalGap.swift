import Foundation
import GRDB
import InterApp

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

    /// Accepts the gap between the journal at `path` and the position recorded beside it: records who accepted
    /// which interval in the journal's `meta` table, then records the journal's own position beside it (its
    /// epoch kept past the recorded one). Takes the journal's lock, so it never runs beside a bridge.
    ///
    /// - Returns: what was accepted, or nil when the journal is not behind (nothing is written then).
    /// - Throws: ``JournalError``: a bridge holds the journal, the journal or the position cannot be read.
    public static func accept(path: String, by: String, now: Date = Date()) throws -> Accepted? {
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
        var current = try read(database, path: path)
        guard current.refusal(against: recorded, path: path) != nil else { return nil }
        let ms = Int64((now.timeIntervalSince1970 * 1000).rounded())
        let accepted = Accepted(
            by: by, journal: current.described, recorded: "\(recorded.described) of journal \(recorded.journal)",
            key: "\(metaKeyPrefix)\(ms)")
        let record: JSONObject = [
            "by": .string(by), "at": .string(Timestamp.iso8601(ms: ms)), "journal": .string(current.line),
            "recorded": .string(recorded.line),
        ]
        do {
            try database.write { db in
                try db.execute(
                    sql: "INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)",
                    arguments: [accepted.key, JSONValue.object(record).serializedString])
            }
        } catch {
            throw JournalError(path: path, "cannot record the accepted gap: \(error); nothing was changed")
        }
        current.epoch = max(current.epoch, recorded.epoch)
        try JournalPositionFile.write(current, journal: path, durably: true)
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
