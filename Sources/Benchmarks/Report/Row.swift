/// Whether a figure meets its target.
enum Verdict: String, Sendable {
    case met = "met"
    case notMet = "NOT MET"
    /// No target: the figure is there to explain another one.
    case none = "-"
}

/// One line of the report: a figure, the baseline measured beside it in the same run, and their ratio.
struct Row: Sendable {
    var section: String
    var figure: String
    var value: String
    var baseline: String
    /// value / baseline (or as the figure says); nil when it means nothing.
    var ratio: Double?
    var target: String = "-"
    var verdict: Verdict = .none
}

/// What a section hands back: its rows, and notes that explain them.
struct SectionResult: Sendable {
    var rows: [Row] = []
    var notes: [String] = []
    /// Rows the section meant to produce but could not, with the reason.
    var failures: [String] = []
}
