import Bridge
import Foundation
import GRDB
import InterApp
import Logging
import TerminalSimulator
import Testing
import ZeroMQ

/// A backup restored is behind the journal it was taken from: the bridge refuses it until the gap is
/// accepted, and its epoch never goes backwards (issue 44, item 1). The restore steps are run as
/// docs/JOURNAL.md writes them.
@Suite("Restoring a backup: refused while behind, served once the gap is accepted")
struct JournalRestoreTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `sh` block after `marker` in docs/JOURNAL.md, with the doc's paths replaced by `paths` (each must
    /// be in the block: a doc that changes them changes this test).
    static func block(after marker: String, paths: [String: String]) throws -> String {
        let doc = try String(contentsOf: root.appendingPathComponent("docs/JOURNAL.md"), encoding: .utf8)
        let from = try #require(doc.range(of: marker), "docs/JOURNAL.md has no \(marker)")
        let open = try #require(doc.range(of: "```sh\n", range: from.upperBound..<doc.endIndex))
        let close = try #require(doc.range(of: "```", range: open.upperBound..<doc.endIndex))
        var text = String(doc[open.upperBound..<close.lowerBound])
        for (written, replacement) in paths {
            #expect(text.contains(written), "the block no longer says \(written)")
            text = text.replacingOccurrences(of: written, with: replacement)
        }
        return text
    }

    /// Runs `script` in bash with `vivabridge` on the PATH; returns its status and output (both streams).
    static func run(_ script: String, environment: [String: String] = [:]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        var variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        variables["PATH"] = ChildProcess.executable.deletingLastPathComponent().path + ":" + (variables["PATH"] ?? "")
        process.environment = variables
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// Sends each command in turn to the `start`th bridge on `configuration` once its lane is up, then stops
    /// it; returns the replies.
    static func serve(
        _ configuration: BridgeConfiguration, _ simulator: Simulator, start: Int, commands: [String]
    ) throws -> [JSONObject] {
        let bridge = try Bridge(
            configuration: configuration, logger: Logger(label: "restore", factory: { _ in SwiftLogNoOpLogHandler() }))
        let bound = try bridge.start()
        defer { bridge.stop() }
        #expect(simulator.waitForHello(lane: "lane-1", count: start, timeout: .seconds(10)))
        #expect(bridge.awaitLanesUp(["lane-1"], timeout: .seconds(10)), "the relay never answered hello")
        let context = try Context()
        defer { context.terminate() }
        let client = try Socket(context, .dealer)
        defer { client.close() }
        try client.setReceiveTimeout(10_000)
        try client.connect(bound.command)
        return try commands.map { command in
            try client.send([Array(command.utf8)])
            let frames = try #require(try client.receive(), "no reply to \(command)")
            let last = try #require(frames.last)
            return try #require(try JSONValue.parse(last).objectValue)
        }
    }

    /// The `start`th bridge on `configuration` and `simulator`, its sales sent one at a time once its link
    /// is up, then stopped; returns the epoch it ran under.
    static func serve(
        _ configuration: BridgeConfiguration, _ simulator: Simulator, start: Int, sales: ClosedRange<Int>
    ) throws -> Int {
        let replies = try serve(
            configuration, simulator, start: start,
            commands: sales.map { #"{"id":"s\#($0)","lane":"lane-1","action":"sale","amount":\#($0)00}"# })
        for (index, reply) in zip(sales, replies) {
            #expect(reply["outcome"]?.stringValue == "success", "s\(index): \(reply)")
        }
        return try DatabaseQueue(path: configuration.journal).read { db in
            try Int.fetchOne(db, sql: "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'epoch'") ?? 0
        }
    }

    @Test("the restore section as written: check and start refuse the backup, accept-gap records who, epochs go on")
    func restoreAsWritten() throws {
        let simulator = Simulator(
            lanes: [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: .zeroDelay)],
            seed: 3)
        let endpoint = try #require(try simulator.start()["lane-1"])
        defer { simulator.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("restore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appendingPathComponent("journal.sqlite").path
        let configFile = folder.appendingPathComponent("vivabridge.yaml").path
        let yaml = """
            command: tcp://127.0.0.1:*
            events: tcp://127.0.0.1:*
            journal: \(journal)
            terminal: {merchantKey: RESTORE-TEST-KEY}
            lanes:
              - {id: lane-1, endpoint: "\(endpoint)", platform: ios}

            """
        try yaml.write(toFile: configFile, atomically: true, encoding: .utf8)
        let configuration = try BridgeConfiguration.load(file: configFile, environment: [:])

        _ = try Self.serve(configuration, simulator, start: 1, sales: 1...5)
        let backup = folder.appendingPathComponent("journal-backup.sqlite").path
        let (backedUp, backupOutput) = try Self.run("vivabridge journal backup --journal '\(journal)' --to '\(backup)'")
        #expect(backedUp == 0, "\(backupOutput)")
        // A restart between the backup and the restore: the relays have seen a higher epoch since.
        _ = try Self.serve(configuration, simulator, start: 2, sales: 6...8)
        let lastEpoch = try Self.serve(configuration, simulator, start: 3, sales: 9...10)
        #expect(lastEpoch >= 3)

        let paths = [
            "/var/lib/vivabridge": folder.path, "/etc/vivabridge/vivabridge.yaml": configFile,
            "/var/backups/vivabridge/journal-2026-12-01.sqlite": backup,
        ]
        let (checked, checkOutput) = try Self.run(Self.block(after: "<!-- restore-steps", paths: paths))
        #expect(checked == 1, "journal check must fail on a journal that is behind: \(checkOutput)")
        #expect(checkOutput.contains("journal OK"), "\(checkOutput)")
        #expect(checkOutput.contains("is behind"), "\(checkOutput)")
        #expect(checkOutput.contains("command #5"), "\(checkOutput)")
        #expect(checkOutput.contains("command #10"), "\(checkOutput)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("set-aside/journal.sqlite").path))

        // The bridge refuses it with the same words, before any command could be taken.
        let refused = try Bridge(
            configuration: configuration, logger: Logger(label: "restore", factory: { _ in SwiftLogNoOpLogHandler() }))
        #expect {
            try refused.start()
        } throws: { error in
            let journalError = error as? JournalError
            return journalError?.code == .behindItsPosition && journalError?.isSetUpProblem == true
                && "\(error)".contains("vivabridge journal accept-gap") && "\(error)".contains("command #10")
        }

        let (accepted, acceptOutput) = try Self.run(
            Self.block(after: "<!-- accept-gap-step", paths: ["/etc/vivabridge/vivabridge.yaml": configFile]),
            environment: ["USER": "night-manager"])
        #expect(accepted == 0, "\(acceptOutput)")
        #expect(acceptOutput.contains("gap accepted by night-manager"), "\(acceptOutput)")
        let record = try DatabaseQueue(path: journal).read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key LIKE 'gap_accepted_%'")
        }
        let object = try #require(try record.flatMap { try JSONValue.parse(Array($0.utf8)).objectValue })
        #expect(object["by"]?.stringValue == "night-manager")
        #expect(object["recorded"]?.stringValue?.contains(#""commandSeq":10"#) == true, "\(object)")

        let epochAfter = try Self.serve(configuration, simulator, start: 4, sales: 11...11)
        #expect(epochAfter == lastEpoch + 1, "the epoch went on from \(lastEpoch), not from the backup's")
        let (checkedAgain, againOutput) = try Self.run("vivabridge journal check --config '\(configFile)'")
        #expect(checkedAgain == 0, "\(againOutput)")
    }

    @Test("another journal copied in with its identity file is refused by the position, whatever the identity says")
    func anotherJournalRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("restore-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        func configuration(_ name: String) -> BridgeConfiguration {
            var configuration = BridgeConfiguration()
            configuration.command = "tcp://127.0.0.1:*"
            configuration.events = "tcp://127.0.0.1:*"
            configuration.journal = folder.appendingPathComponent("\(name)/journal.sqlite").path
            configuration.lanes = [LaneConfiguration(id: "lane-1", endpoint: "tcp://127.0.0.1:1", platform: .ios)]
            return configuration
        }
        let ours = configuration("ours")
        let theirs = configuration("theirs")
        for each in [ours, theirs] {
            let bridge = try Bridge(
                configuration: each, logger: Logger(label: "restore", factory: { _ in SwiftLogNoOpLogHandler() }))
            _ = try bridge.start()
            bridge.stop()
        }
        for suffix in ["", ".identity"] {
            _ = try? FileManager.default.removeItem(atPath: ours.journal + suffix)
            try FileManager.default.copyItem(atPath: theirs.journal + suffix, toPath: ours.journal + suffix)
        }
        let bridge = try Bridge(
            configuration: ours, logger: Logger(label: "restore", factory: { _ in SwiftLogNoOpLogHandler() }))
        #expect {
            try bridge.start()
        } throws: { error in
            (error as? JournalError)?.code == .behindItsPosition && "\(error)".contains("says this bridge last served")
        }
    }
}
