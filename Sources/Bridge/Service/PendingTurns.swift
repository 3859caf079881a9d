import BridgeCore
import BridgeJournal
import DequeModule

/// The turns handed to the ``JournalWriter`` and not yet committed, oldest first, each with what it
/// carries out once it is in. A turn that writes nothing but comes after one that waits, waits behind
/// it: effects leave in the order they were decided.
struct PendingTurns {
    private struct Turn {
        /// The turn's number when it writes the journal; nil when it only waits for those before it.
        let number: UInt64?
        let effects: [Effect]
    }

    private var turns = Deque<Turn>()

    /// Whether no turn waits.
    var isEmpty: Bool { turns.isEmpty }

    /// How many turns wait.
    var count: Int { turns.count }

    /// A turn handed to the writer as `number`.
    mutating func append(writing number: UInt64, effects: [Effect]) {
        turns.append(Turn(number: number, effects: effects))
    }

    /// A turn that writes nothing, behind those that wait.
    mutating func append(waiting effects: [Effect]) {
        turns.append(Turn(number: nil, effects: effects))
    }

    /// Removes the turns the writer committed (through `number`) and those that only waited for them;
    /// returns their effects, a turn's each, in order. Each turn's array is handed over as it is: joining
    /// them copied every effect (a retain and a release of each payload, about a µs a sale).
    mutating func takeCommitted(through number: UInt64) -> [[Effect]] {
        var effects: [[Effect]] = []
        while let first = turns.first {
            if let turn = first.number, turn > number { break }
            effects.append(first.effects)
            turns.removeFirst()
        }
        return effects
    }

    /// Removes every waiting turn (the writer failed): the effects of the turns that wrote the journal, and
    /// apart, those of the turns that only waited behind them, each in order.
    mutating func takeAll() -> (writing: [Effect], waiting: [Effect]) {
        defer { turns.removeAll(keepingCapacity: true) }
        return (
            turns.filter { $0.number != nil }.flatMap(\.effects), turns.filter { $0.number == nil }.flatMap(\.effects)
        )
    }

    /// Drops every waiting turn without carrying it out (the loop gave up on the writer at its end).
    mutating func abandon() { turns.removeAll() }
}
