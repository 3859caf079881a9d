import ArgumentParser
import Bridge
import Foundation

/// `vivabridge journal accept-gap`: serves a journal that is behind the position the bridge recorded beside it
/// (a backup restored), once an operator has reconciled the missing interval, and records who accepted it.
struct JournalAcceptGapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept-gap",
        abstract: "Accept that a restored journal lacks the commands since its backup, and record who accepted it.",
        discussion: """
            The bridge refuses a journal that is behind the position it recorded beside it (the .position file): \
            the commands journaled between the two are missing, and a till repeating one of them would have it \
            sent to the terminal again. Find that interval's sales in Viva's records first (docs/JOURNAL.md, Backup \
            and restore); then this command records, in the journal, who accepted which interval, and lets the \
            bridge start on it. Never beside a running bridge (it takes the journal's lock).
            """
    )

    @OptionGroup var location: JournalLocation

    @Option(name: .long, help: "Who accepts the gap (a name or an initials), recorded in the journal.")
    var by: String

    func validate() throws {
        guard !by.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("--by names who accepts the gap; it is recorded in the journal")
        }
    }

    func run() throws {
        if case .database(let address) = try location.place() {
            throw JournalCommand.fail(
                "\(address.location) is a database on PostgreSQL: its bridges record no position beside it "
                    + "(restore a PostgreSQL journal with PostgreSQL's own tools, docs/JOURNAL.md)", exitCode: 2)
        }
        let path = try location.path()
        guard let accepted = try JournalCommand.reporting({ try JournalGap.accept(path: path, by: by) }) else {
            print("journal \(path) is not behind its recorded position: there is no gap to accept")
            return
        }
        print(
            "gap accepted by \(accepted.by): the journal holds \(accepted.journal); the bridge had journaled "
                + "\(accepted.recorded)")
        print("recorded in the journal's meta table as \(accepted.key); the bridge may start on it now")
    }
}
