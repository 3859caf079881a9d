import Foundation
import TerminalSimulator
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// A journal others can read (one made before files were created 0600, or copied by hand) is named at start
/// with the command that fixes it (docs/SECURITY.md).
@Suite("Journal file modes at start")
struct JournalExposureTests {
    @Test("an existing journal readable by others is warned about at start, with the chmod that fixes it")
    func exposedJournalWarned() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-exposed-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appendingPathComponent("journal.sqlite").path
        try Journal(path: journal, sync: .normal).close()
        #expect(chmod(journal, 0o644) == 0)

        let harness = try BridgeHarness(lanes: [SimulatedLane(id: "lane-1", platform: .ios)], journalFolder: folder)
        let warning = harness.logs.text.split(separator: "\n").first {
            $0.contains("the journal can be read by users other than")
        }
        #expect(warning?.contains(#""files": \#(journal) (0644)"#) == true, "\(harness.logs.text)")
        #expect(warning?.contains(#""fix": chmod 600 \#(journal)"#) == true)
    }

    @Test("a journal the bridge created (0600) gets no warning")
    func privateJournalQuiet() throws {
        let harness = try BridgeHarness(lanes: [SimulatedLane(id: "lane-1", platform: .ios)])
        #expect(!harness.logs.text.contains("the journal can be read by users other than"))
    }
}
