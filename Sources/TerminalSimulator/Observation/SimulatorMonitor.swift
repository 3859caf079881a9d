import Foundation

/// The lanes' observable state, shared between the loop (which writes it once per turn) and the threads
/// that query or wait on it, behind one condition variable: waiting never sleeps or polls.
/// `@unchecked` for that reason: a `Mutex` cannot be waited on.
final class SimulatorMonitor: @unchecked Sendable {
    private let condition = NSCondition()
    private var lanes: [LaneObservation]
    private let index: [String: Int]
    private let urlLimit: Int

    init(laneIds: [String], historyLimit: Int, urlLimit: Int) {
        lanes = laneIds.map { _ in LaneObservation(historyLimit: historyLimit) }
        var index: [String: Int] = [:]
        for (offset, id) in laneIds.enumerated() { index[id] = offset }
        self.index = index
        self.urlLimit = max(1, urlLimit)
    }

    /// The index of lane `id`.
    func laneIndex(_ id: String) -> Int? { index[id] }

    /// Reads lane `id`'s state; nil for an unknown lane.
    func read<T>(_ id: String, _ body: (LaneObservation) -> T) -> T? {
        guard let offset = index[id] else { return nil }
        condition.lock()
        defer { condition.unlock() }
        return body(lanes[offset])
    }

    /// Reads every lane's state.
    func readAll<T>(_ body: ([LaneObservation]) -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body(lanes)
    }

    /// Waits until `predicate` holds for lane `id`, or `timeout` passes; false for an unknown lane or when
    /// the time ran out.
    func wait(_ id: String, timeout: Duration, until predicate: (LaneObservation) -> Bool) -> Bool {
        guard let offset = index[id] else { return false }
        let deadline = Date(timeIntervalSinceNow: timeout.seconds)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(lanes[offset]) {
            if !condition.wait(until: deadline) { return predicate(lanes[offset]) }
        }
        return true
    }

    /// Applies the loop's changes of one turn and wakes every waiter.
    func apply(_ deltas: [LaneDelta], dirty: [Int]) {
        condition.lock()
        for offset in dirty { apply(deltas[offset], to: &lanes[offset]) }
        condition.broadcast()
        condition.unlock()
    }

    private func apply(_ delta: LaneDelta, to lane: inout LaneObservation) {
        if let endpoint = delta.endpoint { lane.endpoint = endpoint }
        if let linkUp = delta.linkUp { lane.linkUp = linkUp }
        if !delta.urls.isEmpty {
            lane.urls.append(contentsOf: delta.urls)
            lane.urlCount += delta.urls.count
            if lane.urls.count >= 2 * urlLimit { lane.urls.removeFirst(lane.urls.count - urlLimit) }
        }
        if delta.resetHellos { lane.helloCount = 0 }
        lane.helloCount += delta.hellos
        lane.staleFrameCount += delta.staleFrames
        lane.foregroundCount += delta.foregrounds
        for record in delta.records { lane.history.append(record) }
        for update in delta.updates { lane.history.replace(at: update.index, with: update.record) }
        if let batches = delta.batches { lane.batches = batches }
        if let phase = delta.phase { lane.phase = phase }
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var seconds: TimeInterval {
        let parts = components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
