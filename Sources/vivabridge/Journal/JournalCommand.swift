import ArgumentParser
import Bridge
import Foundation
import JournalTools

/// `vivabridge journal …`: commands for the journal, a file or a database on PostgreSQL.
struct JournalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Commands for the bridge's journal (a file, or a database on PostgreSQL).",
        discussion: "docs/JOURNAL.md describes the journal, its backups and how to reconcile a day.",
        subcommands: [
            JournalCheckCommand.self, JournalExportCommand.self, JournalUnknownCommand.self,
            JournalBackupCommand.self, JournalPruneCommand.self, JournalNewCommand.self, JournalAcceptGapCommand.self,
            JournalFillGapCommand.self, JournalReconcileCommand.self,
        ]
    )

    /// Prints `vivabridge: message` on standard error; the exit to throw.
    static func fail(_ message: String, exitCode: Int32) -> ExitCode {
        FileHandle.standardError.write(Data("vivabridge: \(message)\n".utf8))
        return ExitCode(exitCode)
    }

    /// Runs `body`, turning a ``JournalError`` into its line on standard error and exit 1 (2 when a
    /// bridge holds the journal, or a newer vivabridge wrote it).
    static func reporting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as JournalError {
            throw fail(error.description, exitCode: error.isSetUpProblem ? 2 : 1)
        }
    }
}
