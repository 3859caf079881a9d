import ArgumentParser
import Bridge
import Foundation
import VivaCloud

/// `vivabridge journal fill-gap`: closes the gap of a restored journal (behind the position the bridge
/// recorded beside it) with Viva's records, so that a till repeating a sale of the missing interval is answered
/// from Viva's record of it instead of being charged again (docs/JOURNAL.md, Backup and restore).
struct JournalFillGapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fill-gap",
        abstract: "Fill a restored journal's missing interval from Viva's records, and serve it.",
        discussion: """
            Lists Viva's transactions from the day before the journal's newest command to the day after today, \
            writes each one whose MerchantTrns (the sale's clientTransactionId) the journal lacks as a finished \
            command (F: success, E: failure, another status: unknown), records who filled which interval in the \
            journal's meta table, and lets the bridge start on it. A repeat of such a sale is answered from \
            Viva's record, never sent again. Idempotent. Needs the configuration's vivaCloud section; never \
            beside a running bridge (it takes the journal's lock). Exits 0 when filled or nothing to fill, 2 when \
            it could not run.
            """
    )

    @Option(name: .long, help: "The configuration file: its journal and its vivaCloud section.")
    var config: String

    @Option(name: .long, help: "Who fills the gap (a name or an initials), recorded in the journal.")
    var by: String

    func validate() throws {
        guard !by.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("--by names who fills the gap; it is recorded in the journal")
        }
    }

    func run() async throws {
        let (configuration, problems) = BridgeConfiguration.check(
            file: config, environment: ProcessInfo.processInfo.environment)
        if let problem = problems.all.first {
            throw JournalCommand.fail("configuration refused: \(config): \(problem)", exitCode: 2)
        }
        if configuration.journalIsShared {
            throw JournalCommand.fail(
                "\(config)'s journal is a database on PostgreSQL: its bridges record no position beside it, so it "
                    + "has no gap to fill (restore a PostgreSQL journal with PostgreSQL's own tools, docs/JOURNAL.md)",
                exitCode: 2)
        }
        guard let cloud = configuration.vivaCloud else {
            throw JournalCommand.fail(
                "\(config) has no vivaCloud section: Viva's records cannot be asked. Find the missing interval's "
                    + "sales in Viva's back office, then run `vivabridge journal accept-gap` (docs/JOURNAL.md)",
                exitCode: 2)
        }
        let path = configuration.journal
        guard try JournalCommand.reporting({ try JournalGap.refusal(path: path) }) != nil else {
            print("journal \(path) is not behind its recorded position: there is no gap to fill")
            return
        }
        let newest = try JournalCommand.reporting { try JournalGap.newestCommandMs(path: path) }
        let days = try Self.days(from: newest ?? Self.nowMs() - 86_400_000, to: Self.nowMs())
        let transactions: [DayTransaction]
        do {
            transactions = try await cloud.transactions(onDays: days)
        } catch {
            throw JournalCommand.fail(
                "Viva's records could not be read: \(error); nothing was changed. Try again, or reconcile by hand and "
                    + "run `vivabridge journal accept-gap`", exitCode: 2)
        }
        guard
            let filled = try JournalCommand.reporting({
                try JournalGap.fill(path: path, by: by, transactions: transactions)
            })
        else {
            print("journal \(path) is not behind its recorded position: there is no gap to fill")
            return
        }
        let added = filled.counts.references.count
        print(
            "gap filled by \(filled.accepted.by) from Viva's records of \(days.first ?? "-") to \(days.last ?? "-") "
                + "(\(transactions.count) transactions listed): \(added) command\(added == 1 ? "" : "s") added ("
                + ["success", "failure", "unknown"].map { "\(filled.counts.added[$0] ?? 0) \($0)" }
                .joined(separator: ", ") + ")")
        for reference in filled.counts.references { print("  added \(reference)") }
        print(
            "the journal holds \(filled.accepted.journal); the bridge had journaled \(filled.accepted.recorded); "
                + "recorded in the journal's meta table as \(filled.accepted.key); the bridge may start on it now")
        if (filled.counts.added["unknown"] ?? 0) > 0 {
            print("the unknown ones are listed by `vivabridge journal unknown`: check each in Viva's back office")
        }
    }

    private static func nowMs() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// The UTC days from the day before `fromMs` to the day after `toMs`, at most ``JournalGap.maxFillDays``.
    private static func days(from fromMs: Int64, to toMs: Int64) throws -> [String] {
        let days = JournalGap.vivaDays(fromMs: fromMs, toMs: toMs)
        guard days.count <= JournalGap.maxFillDays else {
            throw JournalCommand.fail(
                "the journal's newest command is \(days.count - 3) days old: more than \(JournalGap.maxFillDays) days of Viva's "
                    + "records to list. Reconcile that interval by hand in Viva's back office, then run "
                    + "`vivabridge journal accept-gap`", exitCode: 2)
        }
        return days
    }
}
