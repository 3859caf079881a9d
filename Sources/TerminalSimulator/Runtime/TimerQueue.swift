/// Scheduled actions of the simulator's loop, earliest first (a binary min-heap on monotonic deadlines;
/// equal deadlines keep their scheduling order).
struct TimerQueue<Event> {
    private struct Entry {
        var deadline: UInt64
        var sequence: UInt64
        var event: Event

        func isEarlier(than other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
        }
    }

    private var heap: [Entry] = []
    private var sequence: UInt64 = 0

    /// The number of scheduled actions.
    var count: Int { heap.count }

    /// The earliest deadline, in monotonic nanoseconds.
    var nextDeadline: UInt64? { heap.first?.deadline }

    /// Schedules `event` at `deadline` (monotonic nanoseconds).
    mutating func schedule(_ event: Event, at deadline: UInt64) {
        sequence += 1
        heap.append(Entry(deadline: deadline, sequence: sequence, event: event))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].isEarlier(than: heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest action if it is due at `now`.
    mutating func popDue(now: UInt64) -> Event? {
        guard let first = heap.first, first.deadline <= now else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count && heap[left].isEarlier(than: heap[smallest]) { smallest = left }
                if right < heap.count && heap[right].isEarlier(than: heap[smallest]) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first.event
    }

    /// Milliseconds a poll may wait before the earliest action is due (rounded up), or -1 when none is.
    func pollTimeout(now: UInt64) -> Int {
        guard let deadline = nextDeadline else { return -1 }
        guard deadline > now else { return 0 }
        return Int((deadline - now + 999_999) / 1_000_000)
    }
}
