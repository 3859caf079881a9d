import Foundation
import Testing

@testable import vivabridge_bench

/// scripts/bench-instructions' workload (`vivabridge-bench --instruction-workload`), tiny: every sale approved.
@Suite struct InstructionWorkloadTests {
    @Test(arguments: [InstructionJournal.normal, .full])
    func everySaleIsApproved(journal: InstructionJournal) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("instructions-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let outcome = try InstructionWorkload.run(sync: journal.sync, warmup: 2, counted: 10, folder: folder.path)
        #expect(outcome.sales == 12)
        #expect(outcome.approved == 12)
        #expect(!outcome.underValgrind)
    }
}
