import InterApp

/// What the bridge knows about one lane: its link, what is in flight on it, and its open batch.
package final class LaneState {
    /// The settings in effect; a reload's new ones wait in ``link`` until the lane is idle.
    package var configuration: LaneConfiguration {
        didSet {
            settings = configuration.settings
            transport = configuration.transport
        }
    }
    /// What the URL builder needs of ``configuration``, kept beside it: read for every command, where taking
    /// it from the configuration copied the whole lane's settings first.
    private(set) var settings: LaneSettings
    /// How the lane is reached (``configuration``'s), kept beside it for the same reason.
    private(set) var transport: LaneTransport
    /// Whether the link is up, and what a reload asked of the lane: moved only by its events.
    var link = LaneLinkState()
    /// What the relay said of itself in its last `hello`: kept while the link is down (the relay is the
    /// same), forgotten when a reload closes the link.
    var relayHello: JSONObject?
    /// What is in flight on the lane: its transaction or the bridge's look-up, its aborts, its sales in
    /// their abort grace.
    var inFlight = LaneInFlight()
    /// `unknown` sales to look up with `transactionDetails` once the lane is idle (Android).
    var pendingLookups: [(saleId: String, clientTransactionId: String)] = []
    var openBatch: OpenBatch?
    var lastCallbackMs: Int64?
    /// The last command of this lane that became final, for the `lanes` answer's `lastResult`.
    var lastResult: LastResult?
    /// What the relay sent that the bridge refused to act on.
    var faults = LaneFaults()
    /// The lane's recent successful pre-authorisations (v1.1), newest last, at most
    /// ``Correlator/maxRememberedAuthorisations``: how a capture's answer is linked to the `pre_auth` it took.
    var authorisations: [Authorisation] = []
    /// The relay's numbered callbacks this bridge took: how a second copy is known (v1.3).
    var relaySequences = RelaySequenceMemory()
    /// Orphans journaled in the current second (``Correlator/orphansPerSecond``), and those held back.
    var orphans = RateWindow(limit: Correlator.orphansPerSecond, length: 1000)

    package init(configuration: LaneConfiguration) {
        self.configuration = configuration
        settings = configuration.settings
        transport = configuration.transport
    }

    /// How long a command of `action` may take on this lane.
    func timeout(for action: TerminalAction) -> Int { configuration.timeout(for: action) }

    var id: String { configuration.id }
    var platform: Platform { configuration.platform }
    /// Whether the link to the lane's relay is up.
    package var connected: Bool { link.isUp }

    /// Whether the lane's link is up, down or not reached yet.
    package var connection: LaneLinkState.Connection { link.connection }

    /// How the lane is reached: a relay or Viva's cloud.
    package var transportKind: LaneTransport.Kind { transport.kind }
    /// Whether a reload removed the lane (it stays only until what is in flight on it ends).
    var isRemoved: Bool { link.isRemoved }
    /// Whether nothing is in flight on the lane: no transaction, no abort, no sale in its abort grace.
    var isIdle: Bool { inFlight.isIdle }
}

/// What a reload asked of a lane that had something in flight.
package enum LaneChange: Equatable {
    /// The lane left the configuration: its link closes once the lane is idle.
    case remove
    /// The lane's settings changed: its link is made anew with these once the lane is idle.
    case replace(LaneConfiguration)
}

/// A lane's last command to become final: kept as fields, turned into the `lanes` answer's `lastResult`
/// object only when a snapshot asks (a sale only stores it).
struct LastResult {
    let id: String
    let action: String
    let outcome: String
    /// The callback's `amount`, when its result had one.
    let amount: JSONValue?
    let atMs: Int64

    /// `{"id", "action", "outcome", "amount"?, "at"}`, as the `lanes` answer shows it.
    var object: JSONObject {
        var last = JSONObject()
        last["id"] = .string(id)
        last["action"] = .string(action)
        last["outcome"] = .string(outcome)
        if let amount { last["amount"] = amount }
        last["at"] = .string(Timestamp.iso8601(ms: atMs))
        return last
    }
}
