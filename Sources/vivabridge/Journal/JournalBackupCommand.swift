import ArgumentParser
import Bridge
import Foundation
import JournalTools

/// `vivabridge journal backup`: SQLite's online backup, consistent while a bridge writes.
struct JournalBackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the journal consistently, even while a bridge writes to it.",
        discussion: "The copy is one file, mode 0600; an existing file is never overwritten."
    )

    @OptionGroup var location: JournalLocation

    @Option(name: .long, help: "The backup file to create (it must not exist).")
    var to: String

    func run() throws {
        if case .database(let address) = try location.place() {
            throw JournalCommand.fail(
                "journal backup copies a journal file; \(address.location) is a database on PostgreSQL: back it up "
                    + "with PostgreSQL's own tools, pg_dump for a copy (pg_dump --format=custom --dbname=... "
                    + "--file=journal.dump) or base backups with WAL archiving (pg_basebackup) for point-in-time "
                    + "recovery (docs/JOURNAL.md, On PostgreSQL)", exitCode: 2)
        }
        let path = try location.path()
        let commands = try JournalCommand.reporting { try JournalBackup.copy(path: path, to: to) }
        print("journal \(path) backed up to \(to) (\(commands) commands)")
    }
}
