import BridgeCore
import BridgeJournal
import Foundation
import InterApp

/// What a bridge publishes about itself for other threads: metrics, live state and the event tap.
struct Observation: Sendable {
    let metrics: BridgeMetrics
    let live: LiveState
    let tap: EventTap
}

extension BridgeLoop {
    /// Publishes a lane's link state (after the correlator took it) to `/readyz` and `vivabridge_lane_up{lane,transport}`;
    /// a lane the correlator no longer has (a reload removed it) leaves both.
    func observeLink(_ lane: String) {
        guard let state = correlator.lane(lane) else {
            observation.live.remove(lane: lane)
            metrics.shared.removeLane(lane)
            return
        }
        observation.live.set(lane: lane, up: state.connected)
        metrics.shared.setLaneUp(lane, state.connected, transport: state.transportKind)
    }

    /// Samples the gauges that are not counted as they change: commands in flight and `unknown` commands
    /// not yet resolved (kept by the command store, no journal query). Once a tick.
    func sampleGauges() {
        metrics.sample(inFlight: correlator.outstandingCount, unknownUnresolved: correlator.unknownCount)
    }

    /// How many commands received since local midnight ended with each outcome, by action (for the lanes page's
    /// counters; ``TodayOutcomes``): the journal's count at the day's first snapshot, then what the loop
    /// carried out since. Empty when the journal cannot be read, or when turns the writer may have committed
    /// are not carried out yet (they would be counted twice): counted at the next snapshot then.
    func todayOutcomes() -> JSONObject {
        let now = clock.nowMs()
        let date = Date(timeIntervalSince1970: Double(now) / 1000)
        let midnight = Int64(Calendar.current.startOfDay(for: date).timeIntervalSince1970 * 1000)
        let counts = today.counts(sinceMidnight: midnight) { midnight in
            pending.isEmpty ? try? journal.outcomeCounts(sinceMs: midnight) : nil
        }
        return JSONObject(
            counts.sorted { $0.key < $1.key }.map { action, outcomes in
                (
                    action,
                    .object(
                        JSONObject(outcomes.sorted { $0.key < $1.key }.map { ($0.key, .number(JSONNumber($0.value))) }))
                )
            })
    }

    /// Sends the `lanes` result, with `epoch` and the `seq` of the last event published, on the tap: in
    /// order with the events, so a reader that keeps the events with a higher `seq` has a consistent view.
    func publishSnapshot() {
        var result = correlator.lanesResult()
        result["epoch"] = .number(JSONNumber(stamper.epoch))
        result["seq"] = .number(JSONNumber(stamper.seq))
        result["today"] = .object(todayOutcomes())
        flushTap()
        EventTap.append(topic: Array(EventTap.snapshotTopic.utf8), to: &tapOutbox.message) {
            JSONValue.object(result).write(into: &$0)
        }
        flushTap()
    }
}
