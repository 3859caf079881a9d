import ArgumentParser
import Bridge
import Foundation
import JournalTools

/// `vivabridge journal new`: sets what is left of a refused journal aside and begins a new one, on purpose.
struct JournalNewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Set a refused journal's remains aside and begin a new journal (never beside a bridge).",
        discussion: """
            For a journal the bridge refuses to start on: an empty file, a missing file beside its -wal, -lock or \
            .identity files, or a journal that is not the one this state folder had. The old files are renamed \
            with .set-aside-TIME, never deleted. A healthy journal of this folder is never set aside. Commands the \
            old journal held are unknown to the new one: a till that retries one of them would charge it again, \
            so reconcile them first (docs/JOURNAL.md).
            """
    )

    @OptionGroup var location: JournalLocation

    func run() throws {
        if case .database(let address) = try location.place(mayBeMissing: true) {
            throw JournalCommand.fail(
                "journal new sets a refused journal file aside; \(address.location) is a database on PostgreSQL, "
                    + "which vivabridge never sets aside: to begin a new journal, reconcile the old one's commands "
                    + "(journal unknown, journal export), then create a new database (createdb) and set journal: to "
                    + "its URL (docs/JOURNAL.md, On PostgreSQL)", exitCode: 2)
        }
        let path = try location.path(mayBeMissing: true)
        let result = try JournalCommand.reporting { try JournalStartAnew.begin(path: path, sync: .full) }
        for (from, to) in result.setAside { print("set aside: \(from) -> \(to)") }
        print("journal \(path): a new journal begins here")
    }
}
