import ArgumentParser
import Bridge
import Foundation

/// `--journal FILE|URL | --config FILE`: which journal a `vivabridge journal …` command works on, shared by
/// every subcommand. With neither, the embedded default's, as `vivabridge run` without `--config` uses it
/// (`./.vivabridge/journal.sqlite`, or under `$VIVABRIDGE_STATE`).
struct JournalLocation: ParsableArguments {
    @Option(
        name: .long,
        help: """
            The journal file, or a PostgreSQL URL (postgresql://USER@HOST:PORT/DBNAME; the password from \
            VIVABRIDGE_JOURNAL_PASSWORD or PGPASSWORD). Default: the file `run` uses without --config, \
            ./.vivabridge/journal.sqlite.
            """)
    var journal: String?

    @Option(name: .long, help: "A configuration file whose journal to use (its `journal` key).")
    var config: String?

    func validate() throws {
        guard journal == nil || config == nil else {
            throw ValidationError("give --journal FILE or --config FILE, not both")
        }
    }

    /// Where the journal is: a file, or a database on PostgreSQL.
    enum Place {
        case file(String)
        /// The database, with its password (from the configuration's `journalPasswordFile`, else from
        /// `VIVABRIDGE_JOURNAL_PASSWORD` or `PGPASSWORD`).
        case database(PostgresAddress)
    }

    /// The journal's file or database; exits 2 when the configuration or the URL is refused (a password in
    /// the URL), 1 when there is no file there (unless `mayBeMissing`).
    func place(mayBeMissing: Bool = false) throws -> Place {
        let environment = ProcessInfo.processInfo.environment
        var url = journal
        var password: JournalPassword?
        if journal == nil, let config {
            do {
                let configuration = try BridgeConfiguration.load(file: config, environment: environment)
                url = configuration.journal
                password = configuration.journalPassword
            } catch {
                throw JournalCommand.fail("configuration refused: \(error)", exitCode: 2)
            }
        }
        guard let url, PostgresAddress.isURL(url) else { return .file(try path(mayBeMissing: mayBeMissing)) }
        do {
            return .database(try PostgresAddress(url: url, password: password, environment: environment))
        } catch {
            throw JournalCommand.fail("\(error)", exitCode: 2)
        }
    }

    /// The journal's path; exits 2 when the configuration is refused, 1 when there is no file there (unless
    /// `mayBeMissing`).
    func path(mayBeMissing: Bool = false) throws -> String {
        let path: String
        if let journal {
            path = journal
        } else if config == nil {
            do {
                path = try EmbeddedDefault.configuration(environment: ProcessInfo.processInfo.environment).journal
            } catch {
                throw JournalCommand.fail("configuration refused: \(error)", exitCode: 2)
            }
            guard FileManager.default.fileExists(atPath: path) else {
                throw JournalCommand.fail(
                    "no journal at \(path) (the one `vivabridge run` uses without --config); give --journal FILE "
                        + "or --config FILE", exitCode: 1)
            }
            return path
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
