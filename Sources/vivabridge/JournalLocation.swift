import ArgumentParser
import Bridge
import Foundation

/// `--journal FILE | --config FILE`: which journal a `vivabridge journal …` command works on, shared by
/// every subcommand.
struct JournalLocation: ParsableArguments {
    @Option(name: .long, help: "The journal file.")
    var journal: String?

    @Option(name: .long, help: "A configuration file whose journal to use (its `journal` key).")
    var config: String?

    func validate() throws {
        guard journal != nil || config != nil else { throw ValidationError("give --journal FILE or --config FILE") }
        guard journal == nil || config == nil else {
            throw ValidationError("give --journal FILE or --config FILE, not both")
        }
    }

    /// The journal's path; exits 2 when the configuration is refused, 1 when there is no file there (unless
    /// `mayBeMissing`).
    func path(mayBeMissing: Bool = false) throws -> String {
        let path: String
        if let journal {
            path = journal
        } else {
            do {
                path = try BridgeConfiguration.load(
                    file: config ?? "", environment: ProcessInfo.processInfo.environment
                )
                .journal
            } catch {
                throw JournalCommand.fail("configuration refused: \(error)", exitCode: 2)
            }
        }
        guard mayBeMissing || FileManager.default.fileExists(atPath: path) else {
            throw JournalCommand.fail("no journal at \(path)", exitCode: 1)
        }
        return path
    }
}
