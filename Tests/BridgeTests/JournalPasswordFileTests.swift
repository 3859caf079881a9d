import Foundation
import LocalPostgres
import Logging
import TerminalSimulator
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// `journalPasswordFile:` (docs/CONFIG.md): a PostgreSQL journal's password read from a file only its owner
/// reads, at start, never shown.
@Suite("journalPasswordFile: the PostgreSQL journal's password from a file")
struct JournalPasswordFileTests {
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-pwfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// A file holding `text` with `mode`; its path.
    private func file(_ text: String, mode: Int = 0o600, name: String = "journal.password") throws -> String {
        let path = folder.appendingPathComponent(name).path
        _ = FileManager.default.createFile(
            atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode])
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    private static func yaml(journal: String = "postgresql://bridge@db.example:5432/journal", file: String) -> String {
        """
        journal: \(journal)
        journalPasswordFile: \(file)
        terminal: {merchantKey: K}
        lanes:
          - {id: lane-1, endpoint: "tcp://127.0.0.1:6001", platform: ios}
        """
    }

    @Test("read at load without its line end; it wins over the environment; nothing prints it")
    func readAndHidden() throws {
        let path = try file("pw-from-file\r\n")
        let configuration = try BridgeConfiguration.load(yaml: Self.yaml(file: path))
        #expect(configuration.journalPasswordFile == path)
        let address = try PostgresAddress(
            url: configuration.journal, password: configuration.journalPassword,
            environment: ["PGPASSWORD": "pw-from-environment"])
        #expect(address.password == "pw-from-file")
        #expect(!String(describing: configuration).contains("pw-from-file"))
        #expect(!String(reflecting: configuration).contains("pw-from-file"))
        #expect(!address.location.contains("pw-from-file"))
        // Without the file, the environment's, as before.
        #expect(try PostgresAddress(url: configuration.journal, environment: ["PGPASSWORD": "p"]).password == "p")
    }

    @Test("refused when group or others can read it, when missing or empty, and beside a journal file")
    func refusals() throws {
        let open = try file("secret-pw\n", mode: 0o640)
        #expect(
            BridgeConfiguration.check(yaml: Self.yaml(file: open)).problems.all.map(\.description) == [
                "journalPasswordFile: \(open) is readable by group or others; make it the owner's alone: chmod 600 \(open)"
            ])
        let missing = folder.appendingPathComponent("none").path
        let absent = BridgeConfiguration.check(yaml: Self.yaml(file: missing)).problems.all.map(\.description)
        #expect(absent.count == 1)
        #expect(
            absent.first?.hasPrefix("journalPasswordFile: cannot read \(missing): No such file") == true, "\(absent)")
        let empty = try file("\n", name: "empty")
        #expect(
            BridgeConfiguration.check(yaml: Self.yaml(file: empty)).problems.all.map(\.description) == [
                "journalPasswordFile: \(empty) is empty; write the journal's password in it (one line)"
            ])
        let good = try file("secret-pw\n", name: "good")
        let beside = BridgeConfiguration.check(yaml: Self.yaml(journal: "/var/lib/vivabridge/j.sqlite", file: good))
        #expect(beside.problems.all.map(\.key) == ["journalPasswordFile"])
        #expect(beside.problems.all.allSatisfy { !$0.description.contains("secret-pw") })
    }

    @Test("a new password file, or new contents in the same file, is taken only at a restart, and said so")
    func changeNeedsRestart() throws {
        let path = try file("first-pw\n")
        let running = try BridgeConfiguration.load(yaml: Self.yaml(file: path))
        #expect(running.restartDifferences(to: try BridgeConfiguration.load(yaml: Self.yaml(file: path))).isEmpty)
        let other = try BridgeConfiguration.load(yaml: Self.yaml(file: try file("first-pw\n", name: "other")))
        #expect(running.restartDifferences(to: other) == ["journalPasswordFile"])
        _ = try file("second-pw\n")
        let rewritten = try BridgeConfiguration.load(yaml: Self.yaml(file: path))
        #expect(running.restartDifferences(to: rewritten) == ["journalPasswordFile"])
        #expect(!running.restartDifferences(to: rewritten).joined().contains("second-pw"))
    }

    @Test("a bridge connects with the file's password to a server that asks for one; a wrong one is refused unshown")
    func bridgeUsesIt() throws {
        let cluster = try PostgresCluster.shared()
        let role = "pw_\(UUID().uuidString.prefix(8).lowercased())"
        try cluster.createRole(role, password: "right-pw-1")
        let url = try cluster.createDatabase().replacingOccurrences(of: "postgres@", with: "\(role)@")
        let lanes = [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: .zeroDelay)]

        let right = try BridgeConfiguration.load(yaml: Self.yaml(journal: url, file: try file("right-pw-1\n")))
        let harness = try BridgeHarness(lanes: lanes, journal: url) { $0.journalPassword = right.journalPassword }
        #expect(try harness.call(saleJSON(id: "pw-sale", lane: "lane-1", amount: 100)).string("outcome") == "success")
        harness.bridge.stop()

        let wrong = try BridgeConfiguration.load(
            yaml: Self.yaml(journal: url, file: try file("wrong-pw-2\n", name: "w")))
        var configuration = right
        configuration.journalPassword = wrong.journalPassword
        configuration.command = "tcp://127.0.0.1:*"
        configuration.events = "tcp://127.0.0.1:*"
        let bridge = try Bridge(
            configuration: configuration, logger: Logger(label: "pw-test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let error = #expect(throws: (any Error).self) { _ = try bridge.start() }
        let text = String(describing: error)
        #expect(text.contains("password authentication failed"), "\(text)")
        #expect(!text.contains("wrong-pw-2") && !text.contains("right-pw-1"), "\(text)")
    }
}
