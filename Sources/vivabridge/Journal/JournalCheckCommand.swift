import ArgumentParser
import Bridge
import Foundation
import JournalTools

/// `vivabridge journal check`: SQLite's full integrity check, read-only, safe beside a running bridge; on
/// PostgreSQL, the schema created or migrated as `run` does, then checked.
struct JournalCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Check the journal's integrity (a file: read-only, a running bridge may keep writing; "
            + "a PostgreSQL URL: its schema created or migrated first).",
        discussion: """
            Exits 0 and prints "journal OK" when intact, 1 with every problem found (one a line). On PostgreSQL \
            it first creates or migrates the journal's schema as `run` does (so it prepares an empty database, \
            such as head office's copy: docs/OPERATIONS.md), then checks that every outcome names a command.
            """
    )

    @OptionGroup var location: JournalLocation

    func run() throws {
        if case .database(let address) = try location.place() {
            let problems = try JournalCommand.reporting { try PostgresJournalTools.check(address: address) }
            guard problems == ["ok"] else {
                print("journal \(address.location) is damaged:")
                for problem in problems { print("  \(problem)") }
                throw ExitCode(1)
            }
            print("journal OK: \(address.location)")
            return
        }
        let path = try location.path()
        let problems = try JournalCommand.reporting { try JournalMaintenance.integrityProblems(path: path) }
        if problems == ["ok"] {
            print("journal OK: \(path)")
            if let behind = try JournalCommand.reporting({ try JournalGap.refusal(path: path) }) {
                print("but the bridge will not serve it: the journal \(behind)")
                throw ExitCode(1)
            }
            return
        }
        print("journal \(path) is damaged:")
        for problem in problems { print("  \(problem)") }
        print(
            "Restore it from a backup, or run `vivabridge journal new --journal \(path)` to set it aside and start a new journal."
        )
        throw ExitCode(1)
    }
}
