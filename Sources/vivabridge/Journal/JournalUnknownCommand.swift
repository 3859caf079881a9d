import ArgumentParser
import Bridge
import Foundation
import JournalTools

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
