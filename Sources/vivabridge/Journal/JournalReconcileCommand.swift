import ArgumentParser
import Bridge
import Foundation
import InterApp
import JournalTools
import VivaCloud

/// `vivabridge journal reconcile`: one UTC day of the journal's sales and pre-authorisations against Viva's
/// transaction records (docs/CLOUD.md), for a store manager at closing or a head office's scripts.
struct JournalReconcileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconcile",
        abstract: "Compare one day of the journal with Viva's transaction records.",
        discussion: """
            Reads the journal (a file, or PostgreSQL) and vivaCloud from the configuration, lists Viva's transactions of the day and \
            the days either side (Viva dates them in the merchant's local time), and matches them on \
            clientTransactionId (Viva's MerchantTrns): matched, missing at Viva, missing in the journal, outcome \
            differs, amount differs. Exits 0 when everything matched, 1 when something differs, 2 when it could \
            not run (configuration, journal, Viva unreachable). Read-only: it can run beside a running bridge.
            """
    )

    @Option(
        name: .long,
        help: """
            The configuration file: its journal and its vivaCloud section. Default: the embedded default's, \
            whose vivaCloud is Viva's simulated back office that `vivabridge run` without --config starts.
            """)
    var config: String?

    @Option(name: .long, help: "The UTC day to reconcile, YYYY-MM-DD.")
    var date: String

    @Flag(name: .long, help: "One JSON object instead of the report for a person.")
    var json = false

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let configuration: BridgeConfiguration
        if let config {
            let (checked, problems) = BridgeConfiguration.check(file: config, environment: environment)
            if let problem = problems.all.first {
                throw JournalCommand.fail("configuration refused: \(config): \(problem)", exitCode: 2)
            }
            configuration = checked
        } else {
            do {
                configuration = try EmbeddedDefault.configuration(environment: environment, backOffice: true)
            } catch {
                throw JournalCommand.fail("the embedded default's configuration is refused: \(error)", exitCode: 2)
            }
        }
        guard let cloud = configuration.vivaCloud else {
            throw JournalCommand.fail(
                "\(config ?? "the configuration") has no vivaCloud section: Viva's records cannot be asked "
                    + "(docs/CLOUD.md)", exitCode: 2)
        }
        guard date.count == 10, let dayStart = JournalTimeBound.milliseconds(date) else {
            throw JournalCommand.fail("--date \(date): give a day as YYYY-MM-DD", exitCode: 2)
        }
        let day: Int64 = 86_400_000
        var commands: [ExportedCommand] = []
        let (fromMs, toMs) = (dayStart - day, dayStart + 2 * day)
        do {
            if configuration.journalIsShared {
                let address = try PostgresAddress(
                    url: configuration.journal, password: configuration.journalPassword,
                    environment: ProcessInfo.processInfo.environment)
                _ = try PostgresJournalExport.forEachFinished(address: address, fromMs: fromMs, toMs: toMs) {
                    commands.append($0)
                }
            } else {
                _ = try JournalExport.forEachFinished(path: configuration.journal, fromMs: fromMs, toMs: toMs) {
                    commands.append($0)
                }
            }
        } catch {
            throw JournalCommand.fail("\(error)", exitCode: 2)
        }
        let transactions: [DayTransaction]
        do {
            transactions = try await cloud.transactions(onDays: DayReconciliation.vivaDays(around: dayStart))
        } catch {
            throw JournalCommand.fail("Viva's records could not be read: \(error)", exitCode: 2)
        }
        let report = DayReconciliation.compare(day: date, journal: commands, viva: transactions)
        if json {
            print(JSONValue.object(report.json).serializedString)
        } else {
            print(report.text, terminator: "")
        }
        if !report.differences.isEmpty { throw ExitCode(1) }
    }
}
