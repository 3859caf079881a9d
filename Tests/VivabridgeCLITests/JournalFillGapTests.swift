import Bridge
import Foundation
import GRDB
import InterApp
import Logging
import TerminalSimulator
import Testing
import ZeroMQ

/// A restored backup's missing interval filled from Viva's records (issue 44 item 1, issue 46): the sales made
/// after the backup are written in from Viva's simulated back office, and a till repeating one of them is
/// answered from Viva's record, never charged again. The fill step is run as docs/JOURNAL.md writes it.
/// Serialized: its bridge, relays and back office run beside blocking receives on the cooperative pool.
@Suite("Filling a restored journal's gap from Viva's records", .serialized)
struct JournalFillGapTests {
    static func sale(_ id: String, _ amount: Int, reference: String? = nil) -> String {
        let named = reference.map { #","clientTransactionId":"\#($0)""# } ?? ""
        return #"{"id":"\#(id)","lane":"lane-1","action":"sale","amount":\#(amount)\#(named)}"#
    }

    /// Who fills the gap: the operator with the documented command, or the bridge itself at its start.
    enum Filler: String, CaseIterable, CustomTestStringConvertible {
        case command, start
        var testDescription: String { self == .command ? "fill-gap as written" : "the bridge at its start" }
    }

    @Test(
        "the missing sales filled from Viva's records, repeats answered from them, nothing charged twice",
        arguments: Filler.allCases)
    func fillFromViva(_ filler: Filler) async throws {
        let ledger = CloudLedger(utcOffsetMinutes: 0)
        let server = CloudBackOfficeServer(
            backOffice: CloudBackOffice(
                credentials: CloudCredentials(
                    clientId: "pos-client", clientSecret: "CLIENT-SECRET-VALUE", merchantId: "merchant-1",
                    apiKey: "API-KEY-VALUE"),
                ledger: ledger))
        let port = try await server.start()
        let simulator = Simulator(
            lanes: [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: .zeroDelay)],
            seed: 5, ledger: ledger)
        let endpoint = try #require(try simulator.start()["lane-1"])
        defer { simulator.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fill-gap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, value) in [
            ("client-secret", "CLIENT-SECRET-VALUE"), ("api-key", "API-KEY-VALUE"), ("revoked-key", "REVOKED-KEY"),
        ] {
            _ = FileManager.default.createFile(
                atPath: folder.appendingPathComponent(name).path, contents: Data(value.utf8),
                attributes: [.posixPermissions: 0o600])
        }
        let journal = folder.appendingPathComponent("journal.sqlite").path
        /// A configuration whose key for Viva's older API is in `apiKey`, written as `name`.
        func writeConfig(_ name: String, apiKey: String = "api-key") throws -> String {
            let url = "http://127.0.0.1:\(port)"
            let file = folder.appendingPathComponent(name).path
            try """
            command: tcp://127.0.0.1:*
            events: tcp://127.0.0.1:*
            journal: \(journal)
            terminal: {merchantKey: FILL-TEST-KEY}
            lanes:
              - {id: lane-1, endpoint: "\(endpoint)", platform: ios}
            vivaCloud: {accountsURL: "\(url)", apiURL: "\(url)", legacyURL: "\(url)", clientId: pos-client, \
            clientSecretFile: \(folder.path)/client-secret, merchantId: merchant-1, apiKeyFile: \(folder.path)/\(apiKey)}

            """.write(toFile: file, atomically: true, encoding: .utf8)
            return file
        }
        let configFile = try writeConfig("vivabridge.yaml")
        let configuration = try BridgeConfiguration.load(file: configFile, environment: [:])

        let before = try JournalRestoreTests.serve(configuration, simulator, start: 1, commands: [Self.sale("s1", 100)])
        #expect(before.first?["outcome"]?.stringValue == "success", "\(before)")
        let backup = folder.appendingPathComponent("journal-backup.sqlite").path
        let (backedUp, backupOutput) = try JournalRestoreTests.run(
            "vivabridge journal backup --journal '\(journal)' --to '\(backup)'")
        #expect(backedUp == 0, "\(backupOutput)")
        // The interval the backup lacks: two sales, one declined (an amount ending in 51), one naming its own
        // clientTransactionId.
        let lost = try JournalRestoreTests.serve(
            configuration, simulator, start: 2,
            commands: [Self.sale("s2", 200), Self.sale("s3", 351), Self.sale("s4", 400, reference: "till-4-ref")])
        #expect(lost.map { $0["outcome"]?.stringValue } == ["success", "failure", "success"], "\(lost)")
        let charged = ledger.entries.count
        #expect(charged == 4)

        let paths = [
            "/var/lib/vivabridge": folder.path, "/etc/vivabridge/vivabridge.yaml": configFile,
            "/var/backups/vivabridge/journal-2026-12-01.sqlite": backup,
        ]
        let (checked, checkOutput) = try JournalRestoreTests.run(
            JournalRestoreTests.block(after: "<!-- restore-steps", paths: paths))
        #expect(checked == 1 && checkOutput.contains("is behind"), "\(checkOutput)")

        if filler == .command {
            try Self.fillAsWritten(configFile)
        } else {
            // Viva refuses the bridge's key: nothing is changed, and the journal is refused as before.
            let unreachable = try BridgeConfiguration.load(
                file: try writeConfig("revoked.yaml", apiKey: "revoked-key"), environment: [:])
            let refused = try Bridge(
                configuration: unreachable,
                logger: Logger(label: "fill-gap", factory: { _ in SwiftLogNoOpLogHandler() }))
            #expect {
                try refused.start()
            } throws: { error in
                (error as? JournalError)?.code == .behindItsPosition && "\(error)".contains("journal fill-gap")
            }
        }

        let repeats = try JournalRestoreTests.serve(
            configuration, simulator, start: 3,
            commands: [
                Self.sale("s2", 200), Self.sale("s3", 351), Self.sale("s4", 400, reference: "till-4-ref"),
                Self.sale("s2", 999), Self.sale("s5", 500),
            ])
        #expect(repeats[0]["outcome"]?.stringValue == "success", "\(repeats[0])")
        #expect(repeats[0]["lane"]?.stringValue == "lane-1")
        #expect(repeats[0]["resolved"]?.objectValue?["by"]?.stringValue == "viva", "\(repeats[0])")
        #expect(repeats[1]["outcome"]?.stringValue == "failure", "\(repeats[1])")
        #expect(repeats[2]["outcome"]?.stringValue == "success", "\(repeats[2])")
        #expect(repeats[2]["id"]?.stringValue == "s4", "answered under the repeat's own id: \(repeats[2])")
        #expect(repeats[3]["error"]?.objectValue?["code"]?.stringValue == "id_conflict", "\(repeats[3])")
        #expect(repeats[4]["outcome"]?.stringValue == "success", "a new sale goes through: \(repeats[4])")
        let record = try await DatabaseQueue(path: journal).read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key LIKE 'gap_accepted_%'")
        }
        let object = try #require(try record.flatMap { try JSONValue.parse(Array($0.utf8)).objectValue })
        #expect(
            object["by"]?.stringValue
                == (filler == .command ? "night-manager" : "vivabridge at start, from Viva's records"))
        #expect(object["filled"]?.objectValue?["success"] == .number(JSONNumber(2)), "\(object)")
        #expect(object["filled"]?.objectValue?["failure"] == .number(JSONNumber(1)), "\(object)")
        let (exported, export) = try JournalRestoreTests.run(
            "vivabridge journal export --config '\(configFile)' --format jsonl")
        #expect(exported == 0, "\(export)")
        let filled = export.split(separator: "\n").filter { $0.contains(#""id":"till-4-ref""#) }
        #expect(filled.count == 1 && filled.first?.contains(#""outcome":"success""#) == true, "\(export)")
        let entries = ledger.entries
        #expect(entries.count == charged + 1, "only s5 reached the terminal: \(entries.map(\.merchantTrns))")
        await server.stop()
    }

    /// docs/JOURNAL.md's fill step, run as written on `configFile`: what it added, and nothing on a second run.
    static func fillAsWritten(_ configFile: String) throws {
        let fillStep = try JournalRestoreTests.block(
            after: "<!-- fill-gap-step", paths: ["/etc/vivabridge/vivabridge.yaml": configFile])
        let (filled, fillOutput) = try JournalRestoreTests.run(fillStep, environment: ["USER": "night-manager"])
        #expect(filled == 0, "\(fillOutput)")
        #expect(fillOutput.contains("3 commands added (2 success, 1 failure, 0 unknown)"), "\(fillOutput)")
        for reference in ["s2", "s3", "till-4-ref"] { #expect(fillOutput.contains("added \(reference)\n")) }
        #expect(!fillOutput.contains("added s1\n"), "s1 is in the backup: \(fillOutput)")
        #expect(!fillOutput.contains("CLIENT-SECRET-VALUE") && !fillOutput.contains("API-KEY-VALUE"))
        let (again, againOutput) = try JournalRestoreTests.run(fillStep, environment: ["USER": "night-manager"])
        #expect(again == 0 && againOutput.contains("no gap to fill"), "\(againOutput)")
    }
}
