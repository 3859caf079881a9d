import Foundation
import TerminalSimulator
import Testing

/// The probe's shape: an acknowledged sale, the bridge stopped, its journal emptied, the bridge started
/// again. It must refuse to start rather than begin a new journal and open the sale's URL a second time.
@Suite("An emptied journal: the bridge refuses to start, and `journal new` starts anew on purpose")
struct EmptiedJournalTests {
    @Test("after the journal is truncated, `run` exits 2 naming the path; a repeated id is never sent again")
    func emptiedJournalNeverChargesTwice() throws {
        let simulator = Simulator(lanes: [CLIBridge.lane()])
        let endpoints = try simulator.start()
        defer { simulator.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-emptied-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appendingPathComponent("state/journal.sqlite").path
        let config = folder.appendingPathComponent("bridge.yaml").path
        try """
        command: tcp://127.0.0.1:*
        events: tcp://127.0.0.1:*
        journal: \(journal)
        terminal: {merchantKey: EMPTIED-KEY}
        lanes:
          - {id: lane-1, endpoint: "\(endpoints["lane-1"]!)", platform: ios}
        """.write(toFile: config, atomically: true, encoding: .utf8)

        let first = try ChildProcess(["run", "--config", config])
        let command = try #require(CrashRecoveryTests.endpoint(first, "commands (ROUTER):"), "\(first.errorOutput)")
        #expect(simulator.waitForHello(lane: "lane-1", timeout: .seconds(15)))
        #expect(try awaitLanesUp(command: command, ["lane-1"]))
        let sale = ["sale", "--lane", "lane-1", "--amount", "12.00", "--id", "pos7-000123", "--endpoint", command]
        let sold = try ChildProcess(["send"] + sale)
        #expect(sold.waitForExit() == 0, "\(sold.output)\n\(sold.errorOutput)")
        #expect(simulator.openedURLCount(lane: "lane-1") == 1)
        first.signal(SIGTERM)
        #expect(first.waitForExit() == 0)

        #expect(truncate(journal, 0) == 0)
        let second = try ChildProcess(["run", "--config", config])
        #expect(second.waitForExit() == 2, "a bridge started on the emptied journal")
        #expect(second.errorOutput.contains("journal \(journal): is an empty file"), "\(second.errorOutput)")
        #expect(second.errorOutput.contains("vivabridge journal new --journal \(journal)"))
        #expect(simulator.openedURLCount(lane: "lane-1") == 1)

        let startAnew = try ChildProcess(["journal", "new", "--config", config])
        #expect(startAnew.waitForExit() == 0, "\(startAnew.errorOutput)")
        #expect(startAnew.output.contains("set aside: \(journal) -> \(journal).set-aside-"), "\(startAnew.output)")
        let third = try ChildProcess(["run", "--config", config])
        #expect(CrashRecoveryTests.endpoint(third, "commands (ROUTER):") != nil, "\(third.errorOutput)")
        third.signal(SIGTERM)
        #expect(third.waitForExit() == 0)
    }
}
