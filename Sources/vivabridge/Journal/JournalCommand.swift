import ArgumentParser
import Bridge
import Foundation

/// `vivabridge journal …`: commands for the journal, a file or a database on PostgreSQL.
struct JournalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Commands for the bridge's journal (a file, or a database on PostgreSQL).",
        discussion: "docs/JOURNAL.md describes the journal, its backups and how to reconcile a day.",
        subcommands: [
            JournalCheckCommand.self, JournalExportCommand.self, JournalUnknownCommand.self,
            JournalBackupCommand.self, JournalPruneCommand.self, JournalNewCommand.self, JournalAcceptGapCommand.self,
            JournalReconcileCommand.self,
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

/// `vivabridge journal export`: every finished command, as CSV or JSON Lines, beside a running bridge.
struct JournalExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every finished command (CSV or JSON Lines) on standard output; read-only.",
        discussion: """
            Times are UTC. --from T includes T; --to T excludes T. T is RFC 3339 (2026-11-24T09:00:00Z, \
            2026-11-24T10:00:00+01:00) or a date (2026-11-24): as --from its first instant, as --to the day \
            after's, so --from 2026-11-24 --to 2026-11-24 is that whole day. Commands are selected and ordered \
            by the time the bridge accepted them. docs/JOURNAL.md lists the columns.
            """
    )

    @OptionGroup var location: JournalLocation

    @Option(name: .long, help: "csv (RFC 4180, with a header row) or jsonl (one JSON object a line).")
    var format: String = "csv"

    @Option(name: .long, help: "Only commands accepted at or after T (RFC 3339 or YYYY-MM-DD, UTC).")
    var from: String?

    @Option(name: .long, help: "Only commands accepted before T; a date includes its whole day.")
    var to: String?

    func validate() throws {
        guard JournalExportFormat(rawValue: format) != nil else { throw ValidationError("--format is csv or jsonl") }
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, JournalTimeBound.milliseconds(value) == nil {
                throw ValidationError(
                    "\(name) \(value): give an RFC 3339 time (2026-11-24T09:00:00Z) or a date (2026-11-24)")
            }
        }
    }

    func run() throws {
        let place = try location.place()
        let format = JournalExportFormat(rawValue: format) ?? .csv
        let fromMs = from.flatMap { JournalTimeBound.milliseconds($0) }
        let toMs = to.flatMap { JournalTimeBound.milliseconds($0, endOfDay: true) }
        print(format.header, terminator: "")
        let write = { (command: ExportedCommand) in print(format.line(command), terminator: "") }
        _ = try JournalCommand.reporting {
            switch place {
            case .file(let path): try JournalExport.forEachFinished(path: path, fromMs: fromMs, toMs: toMs, write)
            case .database(let address):
                try PostgresJournalExport.forEachFinished(address: address, fromMs: fromMs, toMs: toMs, write)
            }
        }
    }
}

/// `vivabridge journal unknown`: the commands whose outcome is still `unknown`.
struct JournalUnknownCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unknown",
        abstract: "List the commands whose outcome is still unknown, or not known yet, oldest first; read-only.",
        discussion: "Text: created time, id, lane, action, amount (euros), last message. Exits 0 either way."
    )

    @OptionGroup var location: JournalLocation

    @Option(name: .long, help: "text (one line a command) or jsonl (one JSON object a line).")
    var format: String = "text"

    func validate() throws {
        guard ["text", "jsonl"].contains(format) else { throw ValidationError("--format is text or jsonl") }
    }

    func run() throws {
        let place = try location.place()
        let commands = try JournalCommand.reporting {
            switch place {
            case .file(let path): try JournalUnknown.list(path: path)
            case .database(let address): try PostgresJournalTools.unknown(address: address)
            }
        }
        for command in commands { print(format == "jsonl" ? command.jsonLine : command.textLine) }
        if format == "text" {
            print(
                commands.isEmpty
                    ? "no command is unknown"
                    : "\(commands.count) unknown; once the terminal or Viva's back office shows how one ended, close it "
                        + #"with {"action":"resolve","ref":ID,"outcome":"success"|"failure","note":…} (docs/JOURNAL.md)"#
            )
        }
    }
}

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
