/// How one simulated lane behaves: phase durations, callback encoding, faults and scripted outcomes.
///
/// A behaviour can be changed at any time with ``Simulator/setBehaviour(_:lane:)``; a transaction in flight
/// uses the new durations from its next phase on.
public struct LaneBehaviour: Sendable, Equatable {
    /// How long the app waits for the cardholder to present a card.
    public var cardPresentment: PhaseDuration
    /// How long the app waits for the host once the card is read. Cancels use it too.
    public var host: PhaseDuration
    /// How long each screen a request asks for (`show_receipt`, `show_transaction_result`, `show_rating`)
    /// stays before it is dismissed and the app returns to the caller; 0 returns at once, as if none.
    public var screens: PhaseDuration
    /// How callback values are written.
    public var encoding: CallbackEncoding
    /// A fault shown on every request, or nil for a well-behaved lane.
    public var fault: Fault?
    /// Outcomes for the next sales, consumed in order; once empty, the amount decides (see ``OutcomeRule``).
    public var script: [ScriptedOutcome]
    /// When true, a sale aborted during card presentment also sends its own failure callback after the
    /// abort response (the app does this in some versions; the bridge must keep the abort).
    public var saleCallbackAfterAbort: Bool
    /// A sale or pre-authorisation whose amount ends in these two digits (`54`: 20.54) is approved and never
    /// answered (``ScriptedOutcome/approveUnanswered``), when the script is empty; nil: none is.
    public var unansweredAmountEnding: Int?

    /// Creates a behaviour; the defaults answer at once, realistically, with no fault.
    public init(
        cardPresentment: PhaseDuration = .milliseconds(0),
        host: PhaseDuration = .milliseconds(0),
        screens: PhaseDuration = .milliseconds(0),
        encoding: CallbackEncoding = .realistic,
        fault: Fault? = nil,
        script: [ScriptedOutcome] = [],
        saleCallbackAfterAbort: Bool = false,
        unansweredAmountEnding: Int? = nil
    ) {
        self.cardPresentment = cardPresentment
        self.host = host
        self.screens = screens
        self.encoding = encoding
        self.fault = fault
        self.script = script
        self.saleCallbackAfterAbort = saleCallbackAfterAbort
        self.unansweredAmountEnding = unansweredAmountEnding
    }

    /// A behaviour whose phases both last 0 ms: the lane answers as fast as it can (benchmarks).
    public static let zeroDelay = LaneBehaviour()
}
