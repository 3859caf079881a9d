import ArgumentParser
import Bridge
import Foundation

/// `vivabridge journal …`: commands for the journal file.
struct JournalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Commands for the bridge's journal file.",
        subcommands: [JournalCheckCommand.self]
    )
}

/// `vivabridge journal check`: SQLite's full integrity check, read-only, safe beside a running bridge.
struct JournalCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the journal's integrity (read-only; a running bridge may keep writing).",
        discussion: "Exits 0 and prints \"journal OK\" when intact, 1 with every problem found (one a line)."
    )

    @Option(name: .long, help: "The journal file.")
    var journal: String?

    @Option(name: .long, help: "A configuration file whose journal to check.")
    var config: String?

    func run() throws {
        let path: String
        if let journal {
            path = journal
        } else if let config {
            path = try BridgeConfiguration.load(file: config, environment: ProcessInfo.processInfo.environment).journal
        } else {
            throw ValidationError("give --journal FILE or --config FILE")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            FileHandle.standardError.write(Data("vivabridge: no journal at \(path)\n".utf8))
            throw ExitCode(1)
        }
        let problems = try JournalMaintenance.integrityProblems(path: path)
        if problems == ["ok"] {
            print("journal OK: \(path)")
            return
        }
        print("journal \(path) is damaged:")
        for problem in problems { print("  \(problem)") }
        print("Restore it from a backup, or move it aside (with its -wal and -shm files) to start a new journal.")
        throw ExitCode(1)
    }
}
