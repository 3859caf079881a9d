import Foundation
import InterApp
import LocalPostgres
import TerminalSimulator
import Testing

/// `vivabridge journal reconcile` against Viva's simulated back office on loopback (docs/CLOUD.md).
/// Serialized: each test waits for child processes on a thread of Swift's cooperative pool, which has one
/// thread a core; two at once would hold all of it on a 2-core machine.
@Suite("journal reconcile: the day's journal against Viva's records", .serialized)
struct JournalReconcileCommandTests {
    @Test("matched sales and a sale made by hand at Viva: exit 1, the difference named, in text and JSON")
    func reconcileADay() async throws {
        try await reconcile(journal: nil)
    }

    @Test("the same day on a journal in PostgreSQL")
    func reconcileOnPostgres() async throws {
        try await reconcile(journal: try PostgresCluster.shared().createDatabase())
    }

    /// Two sales through a bridge whose journal is `journal` (nil: a file), one made by hand at Viva, then the
    /// day reconciled.
    private func reconcile(journal: String?) async throws {
        // Viva's local time is UTC here, so that the day's transactions are the UTC day's at any hour.
        let ledger = CloudLedger(utcOffsetMinutes: 0)
        let backOffice = CloudBackOffice(
            credentials: CloudCredentials(
                clientId: "pos-client", clientSecret: "CLIENT-SECRET-VALUE", merchantId: "merchant-1",
                apiKey: "API-KEY-VALUE"),
            ledger: ledger)
        let server = CloudBackOfficeServer(backOffice: backOffice)
        let port = try await server.start()
        let bridge = try CLIBridge(lanes: [CLIBridge.lane()], journal: journal, ledger: ledger)
        #expect(try bridge.send(["sale", "--lane", "lane-1", "--amount", "12.00", "--id", "pos-1"]).status == 0)
        #expect(try bridge.send(["sale", "--lane", "lane-1", "--amount", "12.51", "--id", "pos-2"]).status == 1)
        ledger.recordSale(amount: 500, merchantTrns: "by-hand", terminalId: "16016684")
        let folder = bridge.folder
        // The bridge made it for a journal file; on PostgreSQL it is made here for the secrets and the file.
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, value) in [("client-secret", "CLIENT-SECRET-VALUE"), ("api-key", "API-KEY-VALUE")] {
            _ = FileManager.default.createFile(
                atPath: folder.appendingPathComponent(name).path, contents: Data(value.utf8),
                attributes: [.posixPermissions: 0o600])
        }
        let url = "http://127.0.0.1:\(port)"
        let config = folder.appendingPathComponent("reconcile.yaml").path
        let yaml = """
            journal: \(journal ?? folder.path + "/journal.sqlite")
            terminal: {merchantKey: CLI-TEST-KEY}
            lanes:
              - {id: lane-1, endpoint: "tcp://127.0.0.1:7001", platform: ios}
            vivaCloud:
              accountsURL: \(url)
              apiURL: \(url)
              legacyURL: \(url)
              clientId: pos-client
              clientSecretFile: \(folder.path)/client-secret
              merchantId: merchant-1
              apiKeyFile: \(folder.path)/api-key

            """
        _ = FileManager.default.createFile(atPath: config, contents: Data(yaml.utf8))
        let day = String(ISO8601DateFormatter().string(from: Date()).prefix(10))

        let json = try ChildProcess(["journal", "reconcile", "--config", config, "--date", day, "--json"])
        #expect(json.waitForExit(timeout: 60) == 1, "\(json.errorOutput)")
        let report = try #require(try JSONValue.parse(json.output).objectValue, "\(json.output)")
        #expect(report["matched"] == .number(JSONNumber(2)))
        #expect(report["differences"] == .number(JSONNumber(1)))
        guard case .array(let lines)? = report["lines"] else {
            Issue.record("no lines: \(json.output)")
            return
        }
        let missing = lines.compactMap(\.objectValue).filter { $0["kind"] == .string("missing_in_journal") }
        #expect(missing.count == 1)
        #expect(missing.first?["viva"]?.objectValue?["amount"] == .number(JSONNumber(500)))

        let text = try ChildProcess(["journal", "reconcile", "--config", config, "--date", day])
        #expect(text.waitForExit(timeout: 60) == 1)
        #expect(text.output.contains("2 matched, 1 difference"), "\(text.output)")
        #expect(text.output.contains("Missing in the journal"))
        let everything = json.output + json.errorOutput + text.output + text.errorOutput
        #expect(!everything.contains("CLIENT-SECRET-VALUE") && !everything.contains("API-KEY-VALUE"))

        try FileManager.default.removeItem(atPath: folder.appendingPathComponent("api-key").path)
        let refused = try ChildProcess(["journal", "reconcile", "--config", config, "--date", day])
        #expect(refused.waitForExit(timeout: 60) == 2)
        #expect(refused.errorOutput.contains("vivaCloud.apiKeyFile"), "\(refused.errorOutput)")
        await server.stop()
    }
}
