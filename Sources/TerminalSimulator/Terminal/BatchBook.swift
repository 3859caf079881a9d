import Foundation

/// A lane's batches: the open one and the last closed ones (the app keeps ten).
struct BatchBook: Sendable, Equatable {
    private(set) var open: SimulatedBatch?
    private(set) var closed: [SimulatedBatch] = []

    /// Every batch, oldest first, the open one last.
    var all: [SimulatedBatch] { closed + (open.map { [$0] } ?? []) }

    /// Closes the open batch if it is 48 hours old at `now` (closed at its 48th hour).
    mutating func expire(at now: Date) {
        guard let batch = open, batch.isExpired(at: now) else { return }
        close(reason: .expired, at: batch.openedAt + SimulatedBatch.lifetime)
    }

    /// Opens a batch, closing the open one (`replaced`).
    mutating func open(name: String, id: String, at now: Date) {
        if open != nil { close(reason: .replaced, at: now) }
        open = SimulatedBatch(name: name, id: id, openedAt: now)
    }

    /// Closes the open batch.
    mutating func close(reason: SimulatedBatch.CloseReason, at now: Date) {
        guard var batch = open else { return }
        batch.closedAt = now
        batch.closeReason = reason
        closed.append(batch)
        if closed.count > 10 { closed.removeFirst(closed.count - 10) }
        open = nil
    }
}
