import BridgeCore
import BridgeJournal
import Foundation
import GRDB
import InterApp

/// How far a journal has got: its id, the bridge's epoch, and the last command and outcome it logged.
///
/// The bridge keeps a copy outside the journal, in the `.position` file beside it (``JournalPositionFile``),
/// and compares the two at every start: a journal that is behind its position (a backup restored, a file
/// copied over by hand) lacks the commands of the interval between, and serving it would send a repeat of
/// one of them to the terminal again. Such a journal is refused until the gap is accepted
/// (`vivabridge journal accept-gap`).
package struct JournalPosition: Equatable, Sendable {
    /// The journal's id (``JournalIdentity``).
    var journal: String
    /// The epoch of the last start on it.
    var epoch: Int
    /// The last command's sequence in `command_log` (kept through retention, below).
    var commandSeq: Int64
    /// The last outcome's sequence in `outcome_log`.
    var outcomeSeq: Int64

    /// The `meta` keys that keep the highest sequences a retention pass or `prune` removed, so that a journal
    /// whose newest rows were pruned is not taken for one that is behind.
    static let prunedCommandKey = "pruned_command_seq"
    static let prunedOutcomeKey = "pruned_outcome_seq"

    /// The journal's own position, read from it (`nil` when it has no id yet).
    static func read(_ db: Database) throws -> JournalPosition? {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT (SELECT value FROM meta WHERE key = '\(JournalIdentity.metaKey)') AS journal,
                (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'epoch') AS epoch,
                MAX(IFNULL((SELECT MAX(seq) FROM command_log), 0),
                    IFNULL((SELECT CAST(value AS INTEGER) FROM meta WHERE key = '\(prunedCommandKey)'), 0)) AS commands,
                MAX(IFNULL((SELECT MAX(seq) FROM outcome_log), 0),
                    IFNULL((SELECT CAST(value AS INTEGER) FROM meta WHERE key = '\(prunedOutcomeKey)'), 0)) AS outcomes
                """)
        guard let row, let journal = row["journal"] as String? else { return nil }
        return JournalPosition(
            journal: journal, epoch: row["epoch"] as Int? ?? 0, commandSeq: row["commands"] as Int64? ?? 0,
            outcomeSeq: row["outcomes"] as Int64? ?? 0)
    }

    /// Records, before rows are removed, the highest sequences the logs hold (in the caller's transaction).
    package static func notePruning(_ db: Database) throws {
        for (key, table) in [(prunedCommandKey, "command_log"), (prunedOutcomeKey, "outcome_log")] {
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO meta(key, value) SELECT ?, CAST(MAX(
                        IFNULL((SELECT MAX(seq) FROM \(table)), 0),
                        IFNULL((SELECT CAST(value AS INTEGER) FROM meta WHERE key = ?), 0)) AS TEXT)
                    """,
                arguments: [key, key])
        }
    }

    /// Why a journal at `self` may not be served when the bridge last recorded `recorded`, or nil when it may.
    func refusal(against recorded: JournalPosition, path: String) -> String? {
        let file = "\((path as NSString).lastPathComponent)\(JournalPositionFile.suffix)"
        let acceptGap = "`vivabridge journal accept-gap --journal \(path) --by NAME`"
        if recorded.journal != journal {
            return "is journal \(journal), but \(file) says this bridge last served journal \(recorded.journal) (up to "
                + "\(recorded.described)). Serving another journal would answer `not_found` for the commands that "
                + "one held, and a till retrying one would charge it again. Put that journal back; or, once its "
                + "commands are reconciled with Viva's records (docs/JOURNAL.md, Backup and restore), run "
                + "\(acceptGap) to serve this one"
        }
        guard commandSeq < recorded.commandSeq || outcomeSeq < recorded.outcomeSeq else { return nil }
        return "is behind: it holds \(described), but this bridge had journaled \(recorded.described) (\(file)). "
            + "The commands and outcomes in between are missing (a backup restored, or a file copied over): a repeat "
            + "of one of them would be sent to the terminal again. Put the newer journal back if you have it; "
            + "otherwise fill the gap from Viva's records with `vivabridge journal fill-gap --config FILE --by NAME` "
            + "(a bridge with vivaCloud does it at start), or find the missing interval's sales in Viva's records, "
            + "then run \(acceptGap) to record who accepted the gap and serve this journal (docs/JOURNAL.md, Backup "
            + "and restore)"
    }

    /// "command #N, outcome #M, epoch E", for messages.
    var described: String { "command #\(commandSeq), outcome #\(outcomeSeq), epoch \(epoch)" }

    /// One line of JSON, as the `.position` file holds it.
    var line: String {
        #"{"journal":"\#(journal)","epoch":\#(epoch),"commandSeq":\#(commandSeq),"outcomeSeq":\#(outcomeSeq)}"#
    }

    /// Reads ``line``; nil when it is not one.
    package init?(line: String) {
        guard let object = try? JSONValue.parse(Array(line.utf8)).objectValue,
            let journal = object["journal"]?.stringValue, let epoch = object["epoch"]?.intValue,
            let commandSeq = object["commandSeq"]?.intValue, let outcomeSeq = object["outcomeSeq"]?.intValue
        else { return nil }
        self.init(journal: journal, epoch: epoch, commandSeq: Int64(commandSeq), outcomeSeq: Int64(outcomeSeq))
    }

    package init(journal: String, epoch: Int, commandSeq: Int64, outcomeSeq: Int64) {
        self.journal = journal
        self.epoch = epoch
        self.commandSeq = commandSeq
        self.outcomeSeq = outcomeSeq
    }
}

/// The `.position` file beside a journal: the last ``JournalPosition`` the bridge saw its journal reach,
/// written at start and after each checkpoint that moved it (so at most about a second behind the journal,
/// never ahead of what is on disk).
package enum JournalPositionFile {
    package static let suffix = ".position"

    /// What the file says: nil when there is none (a first start, a journal older than positions).
    ///
    /// - Throws: ``JournalError`` when the file is there but unreadable.
    static func read(journal: String) throws(JournalError) -> JournalPosition? {
        let target = journal + suffix
        guard FileManager.default.fileExists(atPath: target) else { return nil }
        guard let text = try? String(contentsOfFile: target, encoding: .utf8),
            let position = JournalPosition(line: text.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw JournalError(
                path: journal,
                "has a position file \(target) that cannot be read; the bridge cannot tell whether the journal is "
                    + "behind. If the journal is the one this bridge last served, delete \(target) and start again")
        }
        return position
    }

    /// Writes `position` beside the journal at `journal`: a temporary file, synced when `durably`, renamed over.
    static func write(_ position: JournalPosition, journal: String, durably: Bool) throws(JournalError) {
        try JournalIdentityFile.replace(journal + suffix, with: position.line, journal: journal, durably: durably)
    }
}
