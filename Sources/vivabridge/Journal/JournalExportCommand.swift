import ArgumentParser
import Bridge
import Foundation
import JournalTools

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
