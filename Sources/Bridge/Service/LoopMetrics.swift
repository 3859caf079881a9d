import BridgeCore
import BridgeObservability
import CoreMetrics
import InterApp

/// The loop's side of ``BridgeMetrics``: it keeps each command counter it was given, so that the hot
/// path increments an atomic and never looks a metric up under the registry's lock. Belongs to the
/// loop's thread.
final class LoopMetrics: CorrelationMetrics {
    let shared: BridgeMetrics
    private var counters: [String: CoreMetrics.Counter] = [:]
    private var lastInFlight = -1
    private var lastUnknown = -1

    init(_ shared: BridgeMetrics) { self.shared = shared }

    /// Counts `times` commands answered with `outcome`, and how long since they were received.
    func command(action: String?, outcome: Outcome, code: RejectionCode?, elapsedMs: Int64?, times: Int) {
        guard times > 0 else { return }
        let label = BridgeMetrics.actionLabel(action)
        let key = "\(label) \(outcome.rawValue) \(code?.rawValue ?? "")"
        let counter: CoreMetrics.Counter
        if let known = counters[key] {
            counter = known
        } else {
            counter = shared.commandCounter(action: label, outcome: outcome.rawValue, code: code?.rawValue)
            counters[key] = counter
        }
        counter.increment(by: times)
        // A command restored after a restart has no receipt time: counted, not timed.
        guard let elapsedMs else { return }
        let seconds = Double(max(0, elapsedMs)) / 1000
        for _ in 0..<times { shared.commandDurations[label]?.record(seconds: seconds) }
    }

    /// Counts one callback from a relay.
    func callback(_ kind: CallbackKind) { shared.callbacks[kind]?.increment() }

    /// Counts one look-up in Viva's records.
    func cloudLookup(result: String) { shared.cloudLookup(result: result) }

    /// Counts one reply the command socket could not deliver.
    func replyUndelivered(_ reason: UndeliveredReplyReason) { shared.repliesUndelivered[reason]?.increment() }

    /// Sets the gauges the loop samples (only when they changed).
    func sample(inFlight: Int, unknownUnresolved: Int?) {
        if inFlight != lastInFlight {
            lastInFlight = inFlight
            shared.inFlight.record(inFlight)
        }
        if let unknownUnresolved, unknownUnresolved != lastUnknown {
            lastUnknown = unknownUnresolved
            shared.unknownUnresolved.record(unknownUnresolved)
        }
    }
}
