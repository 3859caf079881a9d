import BridgeCore
import BridgeJournal
import InterApp
import JournalPostgres
import PostgresNIO

/// The operator's journal commands (`vivabridge journal check|unknown|prune`) on a journal in PostgreSQL:
/// the same rules and answers as on a file (``JournalMaintenance``, ``JournalUnknown``, ``JournalPrune``),
/// on a connection of their own (`application_name` `vivabridge-tools`), beside running bridges.
public enum PostgresJournalTools {
    /// Connects to the journal at `address`, refuses one a newer vivabridge wrote, and, unless `mayBeEmpty`,
    /// a database without the journal's schema.
    ///
    /// - Throws: ``JournalError`` naming the database (never the password) and what to do.
    static func open(_ address: PostgresAddress, mayBeEmpty: Bool = false) throws -> PostgresLink {
        let link = try PostgresLink.journal(address, role: "tools")
        do {
            try PostgresMigrations.refuseNewer(link)
            if !mayBeEmpty {
                let present = try link.query("SELECT to_regclass('command_log') IS NOT NULL").first?.decode(Bool.self)
                guard present == true else {
                    throw JournalError(
                        path: address.location,
                        "holds no vivabridge journal (no command_log table): check the database's name; "
                            + "`vivabridge journal check --journal URL` creates the journal's schema in an empty one")
                }
            }
            return link
        } catch let error as JournalError {
            link.close()
            throw error
        } catch {
            link.close()
            throw JournalError(path: address.location, "cannot be read: \(error)")
        }
    }

    /// `journal check` on PostgreSQL: creates or migrates the schema as `run` does (the same migrations; a
    /// journal of a newer vivabridge is refused untouched), then checks what PostgreSQL's own checks do not:
    /// that every outcome names a command of the log. PostgreSQL keeps its pages sound itself (data
    /// checksums, `amcheck`).
    ///
    /// - Returns: `["ok"]` when the journal is sound, else the problems found.
    /// - Throws: ``JournalError`` when it cannot be reached, migrated or read.
    public static func check(address: PostgresAddress) throws -> [String] {
        let link = try open(address, mayBeEmpty: true)
        defer { link.close() }
        do {
            try PostgresMigrations.migrate(link)
            let orphans =
                try link.query(
                    """
                    SELECT COUNT(*) FROM outcome_log o
                    WHERE NOT EXISTS (SELECT 1 FROM command_log c WHERE c.seq = o.command_seq)
                    """
                ).first?.decode(Int64.self) ?? 0
            return orphans == 0 ? ["ok"] : ["\(orphans) outcomes in outcome_log name no command of command_log"]
        } catch let error as JournalError {
            throw error
        } catch {
            throw JournalError(path: address.location, "cannot be checked: \(error)")
        }
    }

    /// `journal unknown` on PostgreSQL: every command whose outcome is `unknown` or that has none yet, oldest
    /// first.
    ///
    /// - Throws: ``JournalError`` when the journal cannot be reached or read.
    public static func unknown(address: PostgresAddress) throws -> [UnknownCommand] {
        let link = try open(address)
        defer { link.close() }
        do {
            return try link.query(
                """
                SELECT id, lane, action, fingerprint, reply, created_ms, updated_ms FROM commands
                WHERE outcome = 'unknown' OR outcome IS NULL ORDER BY created_ms, seq
                """
            ).map { row in
                let (id, lane, action, fingerprint, reply, created, updated) = try row.decode(
                    (String, String?, String, String, String?, Int64, Int64).self)
                let asked = try? JSONValue.parse(fingerprint).objectValue
                let answered = reply.flatMap { try? JSONValue.parse($0).objectValue }
                return UnknownCommand(
                    id: id, lane: lane, action: action, amount: asked?["amount"]?.intValue, createdMs: created,
                    updatedMs: updated, message: answered?["message"]?.stringValue ?? UnknownCommand.noOutcomeYet)
            }
        } catch {
            throw JournalError(path: address.location, "cannot be read: \(error)")
        }
    }

    /// How many commands (or callbacks) one prune statement removes at most: short transactions beside the
    /// bridges.
    static let pruneBatch = 1000

    /// `journal prune` on PostgreSQL: removes what ``JournalPrune`` removes on a file, by the same rule, in
    /// batches of ``pruneBatch`` (each its own transaction, as the bridge's `journalRetentionDays` does),
    /// beside running bridges: the log is only appended to, and prune removes only finished rows no bridge
    /// reads again.
    ///
    /// - Parameter dryRun: count what would be removed; remove nothing.
    /// - Throws: ``JournalError`` when the journal cannot be reached or written (what was removed by then
    ///   stays removed: run it again).
    public static func prune(
        address: PostgresAddress, olderThanDays: Int, nowMs: Int64 = SystemBridgeClock().nowMs(), dryRun: Bool = false
    ) throws -> PruneResult {
        let link = try open(address)
        defer { link.close() }
        let cutoff = nowMs - Int64(olderThanDays) * 86_400_000
        var cutoffBind = PostgresBindings()
        cutoffBind.append(cutoff)
        do {
            if dryRun {
                let commands = try link.query(
                    "SELECT COUNT(*) FROM commands WHERE \(PostgresJournalSQL.numbered(JournalPrune.removable))",
                    cutoffBind
                ).first?.decode(Int64.self)
                let callbacks = try link.query(
                    "SELECT COUNT(*) FROM callbacks WHERE "
                        + PostgresJournalSQL.numbered(JournalPrune.removableCallback), cutoffBind
                ).first?.decode(Int64.self)
                return PruneResult(commands: Int(commands ?? 0), callbacks: Int(callbacks ?? 0))
            }
            var result = PruneResult(commands: 0, callbacks: 0)
            while true {
                let removed = try PostgresJournal.pruneCommands(on: link, cutoffMs: cutoff, limit: pruneBatch)
                result.commands += removed
                if removed < pruneBatch { break }
            }
            var after: Int64 = 0
            while true {
                let (removed, next) = try PostgresJournal.pruneCallbacks(
                    on: link, cutoffMs: cutoff, after: after, limit: pruneBatch)
                result.callbacks += removed
                guard let next else { break }
                after = next
            }
            return result
        } catch {
            throw JournalError(path: address.location, "cannot be pruned: \(error)")
        }
    }
}
