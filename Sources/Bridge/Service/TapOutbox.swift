import BridgeCore
import BridgeJournal

/// The loop's side of the event tap (``EventTap``): its copy of what `/events` viewers want, taken again
/// when one came or went, and the turn's events for them, sent as one message at the end of the turn
/// (``BridgeLoop/flushTap()``), not one message an event.
struct TapOutbox {
    private var interest = TapInterest()
    private var generation = 0
    /// The turn's events for the tap, each after its topic (``EventTap/append(topic:to:_:)``).
    var message: [UInt8] = []

    /// Whether some viewer of `tap` is shown an event of `topic`.
    mutating func wants(_ topic: [UInt8], of tap: EventTap) -> Bool {
        if let changed = tap.interest(ifChangedSince: generation) {
            interest = changed.interest
            generation = changed.generation
        }
        return interest.wants(topic)
    }
}
