/// Whether the journal can take new commands, as the loop's journal events move it, in the style of
/// swift-nio's state machines: each case carries only its data, each event is one mutating method that
/// says what the loop must announce. The correlator owns it (its refusals and look-ups read it).
package enum JournalHealth: Equatable {
    /// Writes work: commands are taken.
    case healthy
    /// A journal write failed: new commands are refused `journal_unavailable` while the results wait in
    /// memory (``HeldTurns``) and the write is retried every second.
    case writesFailing(problem: String)
    /// The journal file was deleted or replaced while running: commands are refused for the rest of the
    /// run, whatever writes do (a restart needs the file restored).
    case fileLost(problem: String)

    /// Why new commands are refused, nil when they are taken.
    var problem: String? {
        switch self {
        case .healthy: nil
        case .writesFailing(let problem), .fileLost(let problem): problem
        }
    }

    /// Whether the journal file was found deleted or replaced.
    var isFileLost: Bool {
        guard case .fileLost = self else { return false }
        return true
    }

    /// A write failed. A problem already known (an earlier failure, a lost file) is kept: it says more.
    mutating func writesFailed(_ problem: String) {
        guard case .healthy = self else { return }
        self = .writesFailing(problem: problem)
    }

    /// The journal file is gone or replaced. Returns whether that is news (the loop says it once).
    mutating func fileLost(_ problem: String) -> Bool {
        guard !isFileLost else { return false }
        self = .fileLost(problem: problem)
        return true
    }

    /// Held results were written: commands are taken again, unless the file was lost. Returns whether
    /// they are (the loop announces the journal available).
    mutating func writesResumed() -> Bool {
        guard !isFileLost else { return false }
        self = .healthy
        return true
    }
}
