/// A misbehaviour a lane shows on purpose, for every request it receives until its behaviour changes.
public enum Fault: Sendable, Equatable {
    /// The relay answers `opened` and the app runs the request, but no callback ever comes back.
    case neverAnswer
    /// Every callback is handed over this many milliseconds later than the app produced it.
    case answerLate(milliseconds: Int)
    /// Every callback is handed over twice.
    case answerTwice
    /// The relay answers `["not_opened", ref, reason]` to every URL and the app never sees it.
    case notOpened(reason: String)
    /// The relay closes its link (as ``Simulator/dropLink(lane:)``) as soon as a URL arrives, before any
    /// `opened`; ``Simulator/restoreLink(lane:)`` brings it back.
    case dropLinkOnOpen
}
