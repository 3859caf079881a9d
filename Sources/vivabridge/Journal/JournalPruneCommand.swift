import ArgumentParser
import Bridge
import Foundation
import JournalTools

/// `vivabridge journal prune`: removes old finished commands, never with a bridge on the journal.
struct JournalPruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Remove finished commands and callbacks older than DAYS (never outstanding or unknown ones).",
        discussion: """
            Removes the finished commands whose journal row last changed more than DAYS days ago, and the \
            callbacks received more than DAYS days ago, but for those of a command that stays. On a file, refused \
            (exit 2) while a bridge runs on the journal: stop it first. On PostgreSQL it runs beside the bridges, \
            a thousand rows a transaction, as journalRetentionDays does.
            """
    )

    @OptionGroup var location: JournalLocation

    @Option(name: .customLong("older-than"), help: "Age in days (1 or more).")
    var olderThan: Int

    @Flag(name: .customLong("dry-run"), help: "Count what would be removed; remove nothing.")
    var dryRun = false

    func validate() throws {
        guard olderThan >= 1 else { throw ValidationError("--older-than is a number of days, 1 or more") }
    }

    func run() throws {
        let place = try location.place()
        let result = try JournalCommand.reporting {
            switch place {
            case .file(let path): try JournalPrune.prune(path: path, olderThanDays: olderThan, dryRun: dryRun)
            case .database(let address):
                try PostgresJournalTools.prune(address: address, olderThanDays: olderThan, dryRun: dryRun)
            }
        }
        let verb = dryRun ? "would remove" : "removed"
        print("\(verb) \(result.commands) commands and \(result.callbacks) callbacks older than \(olderThan) days")
    }
}
