import ArgumentParser
import Bridge
import Foundation

/// The journal's `synchronous` setting of ``InstructionWorkload``.
enum InstructionJournal: String, ExpressibleByArgument, CaseIterable {
    case normal, full

    var sync: JournalSync { self == .full ? .full : .normal }
}

extension InstructionWorkload {
    static let defaultWarmup = 200
    static let defaultCounted = 1000
}

extension BenchCommand {
    /// `--instruction-workload`: runs the sales, prints one line, and fails unless every sale was approved.
    func runInstructionWorkload(_ journal: InstructionJournal) throws {
        guard instructionWarmup >= 0, instructionSales >= 1 else {
            throw ValidationError("instruction-warmup must be >= 0, instruction-sales >= 1")
        }
        try FileManager.default.createDirectory(atPath: journalDir, withIntermediateDirectories: true)
        let outcome = try InstructionWorkload.run(
            sync: journal.sync, warmup: instructionWarmup, counted: instructionSales, folder: journalDir)
        print(
            "instruction-workload: journal \(journal.rawValue), \(instructionWarmup) warm-up and "
                + "\(outcome.sales - instructionWarmup) counted sales, \(outcome.approved) approved; "
                + "valgrind \(outcome.underValgrind ? "yes" : "no"); "
                + "bench context threads first \(outcome.benchContextFirst ? "yes" : "no")")
        if let reply = outcome.firstNotApproved { print("instruction-workload: the first sale not approved: \(reply)") }
        guard outcome.approved == outcome.sales else { throw ExitCode(1) }
    }
}
