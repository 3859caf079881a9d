import Foundation
import InterApp
import TerminalSimulator
import Testing

/// One bridge per journal, journal files readable by the bridge's user only, and `journal check`.
@Suite("Journal ownership: one bridge per journal, private files, journal check")
struct JournalOwnershipTests {
    private static func config(in folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("bridge.yaml")
        try """
        command: tcp://127.0.0.1:*
        events: tcp://127.0.0.1:*
        journal: \(folder.path)/state/journal.sqlite
        terminal: {merchantKey: K}
        lanes:
          - {id: lane-1, endpoint: "tcp://127.0.0.1:1", platform: ios}
        """.write(to: config, atomically: true, encoding: .utf8)
        return config
    }

    @Test("a second bridge on the same journal exits 2 naming the first one's pid; files are 0600 in a 0700 folder")
    func secondBridgeRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-own-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = try Self.config(in: folder)
        let first = try ChildProcess(["run", "--config", config.path])
        #expect(first.waitForLine(containing: "commands (ROUTER):") != nil)
        let second = try ChildProcess(["run", "--config", config.path])
        #expect(second.waitForExit(timeout: 10) == 2)
        #expect(second.errorOutput.contains("is in use by another bridge (pid \(first.process.processIdentifier))"))
        let state = folder.appendingPathComponent("state")
        let folderMode = try FileManager.default.attributesOfItem(atPath: state.path)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
        for name in ["journal.sqlite", "journal.sqlite-wal", "journal.sqlite-shm", "journal.sqlite.lock"] {
            let path = state.appendingPathComponent(name).path
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(name) is \(String(mode ?? 0, radix: 8))")
        }
        let check = try ChildProcess(["journal", "check", "--config", config.path])
        #expect(check.waitForExit(timeout: 20) == 0)
        #expect(check.output.contains("journal OK"))
        first.signal(SIGTERM)
        #expect(first.waitForExit(timeout: 20) == 0)
        // The lock goes with the process: a new bridge starts on the same journal.
        let third = try ChildProcess(["run", "--config", config.path])
        #expect(third.waitForLine(containing: "commands (ROUTER):") != nil)
        third.signal(SIGKILL)
        _ = third.waitForExit(timeout: 20)
        let fourth = try ChildProcess(["run", "--config", config.path])
        #expect(fourth.waitForLine(containing: "commands (ROUTER):") != nil, "a killed bridge left its lock behind")
        fourth.signal(SIGTERM)
        #expect(fourth.waitForExit(timeout: 20) == 0)
    }
}
