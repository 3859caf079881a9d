import InterApp
import VivaCloudModels

/// The `unknown` commands waiting to be looked up in Viva's records, and when each is due: the correlator's
/// state of section 2 of docs/CLOUD.md, with no I/O. A command becomes a candidate when it ends `unknown`
/// (and again at every start, from the journal); it is due `resolveUnknownAfterMs` later, then after each
/// wait of the ``VivaLookupSchedule``, until the schedule gives up. One request serves every due candidate:
/// each distinct day is listed once.
package struct VivaLookups {
    /// One command waiting.
    package struct Candidate: Equatable {
        var id: String
        var lane: String
        var action: TerminalAction
        /// The `clientTransactionId` the bridge sent: Viva's `MerchantTrns`.
        var merchantTrns: String
        /// The amount asked, in cents.
        var amount: Int?
        /// When it became `unknown` (or was created, for one found in the journal at start).
        var unknownSinceMs: Int64
        /// When it is next looked up.
        var dueMs: Int64
        /// How many look-ups were answered so far.
        var attempts = 0
        /// Whether a look-up of it is under way.
        var asking = false

        /// Viva's days (`YYYY-MM-DD`) that may hold it: its UTC day and the days either side, since Viva dates
        /// a transaction in the merchant's local time.
        var days: [String] { VivaLookups.days(aroundMs: unknownSinceMs) }
    }

    /// The actions looked up: the money a terminal takes or holds, named by `clientTransactionId`.
    static let actions: Set<TerminalAction> = [.sale, .preAuth]

    let resolveAfterMs: Int64
    let schedule: VivaLookupSchedule
    private(set) var candidates: [String: Candidate] = [:]

    package init(resolveAfterMs: Int, schedule: VivaLookupSchedule) {
        self.resolveAfterMs = Int64(resolveAfterMs)
        self.schedule = schedule
    }

    /// Takes command `id` as a candidate (once: a second call keeps the first); false when it cannot be
    /// looked up (not a money action of ``actions``, no `clientTransactionId`) or is past the schedule.
    @discardableResult
    mutating func add(
        id: String, lane: String, action: TerminalAction, merchantTrns: String?, amount: Int?, unknownSinceMs: Int64,
        nowMs: Int64
    ) -> Bool {
        guard Self.actions.contains(action), let merchantTrns, !merchantTrns.isEmpty, candidates[id] == nil,
            nowMs < unknownSinceMs + schedule.giveUpAfterMs
        else { return false }
        candidates[id] = Candidate(
            id: id, lane: lane, action: action, merchantTrns: merchantTrns, amount: amount,
            unknownSinceMs: unknownSinceMs, dueMs: max(unknownSinceMs + resolveAfterMs, nowMs))
        return true
    }

    /// Forgets `id` (resolved, by Viva or a person, or completed by a late result).
    mutating func remove(_ id: String) { candidates[id] = nil }

    /// The candidates due at `nowMs` and not being asked, now marked as asked; nil when none is due.
    mutating func takeDue(nowMs: Int64) -> VivaLookupRequest? {
        let due = candidates.values.filter { !$0.asking && $0.dueMs <= nowMs }.sorted { $0.dueMs < $1.dueMs }
        guard !due.isEmpty else { return nil }
        var days: [String] = []
        for candidate in due {
            candidates[candidate.id]?.asking = true
            for day in candidate.days where !days.contains(day) { days.append(day) }
        }
        return VivaLookupRequest(ids: due.map(\.id), days: days.sorted())
    }

    /// The candidate `id`'s look-up was answered without settling it: it is due again by the schedule, or
    /// dropped (returned) when the schedule gives up.
    mutating func lookAgain(_ id: String, nowMs: Int64) -> Candidate? {
        guard var candidate = candidates[id] else { return nil }
        candidate.asking = false
        candidate.attempts += 1
        candidate.dueMs = nowMs + schedule.delayMs(after: candidate.attempts)
        guard candidate.dueMs < candidate.unknownSinceMs + schedule.giveUpAfterMs else {
            candidates[id] = nil
            return candidate
        }
        candidates[id] = candidate
        return nil
    }

    /// The look-up of `id` failed (Viva could not be asked): due again by the schedule, as an answer would.
    mutating func failed(_ id: String, nowMs: Int64) -> Candidate? { lookAgain(id, nowMs: nowMs) }

    /// The earliest time a candidate not being asked is due.
    var nextDueMs: Int64? { candidates.values.lazy.filter { !$0.asking }.map(\.dueMs).min() }

    /// The UTC day of `ms` and the days either side, `YYYY-MM-DD`.
    package static func days(aroundMs ms: Int64) -> [String] {
        [-1, 0, 1].map { offset in String(Timestamp.iso8601(ms: ms + Int64(offset) * 86_400_000).prefix(10)) }
    }
}

/// One look-up of Viva's records the loop hands to ``VivaRecords``: the days to list and the candidates they
/// serve.
package struct VivaLookupRequest: Sendable, Equatable {
    /// The commands looked up.
    var ids: [String]
    /// The days listed, each once.
    package var days: [String]
}

/// What Viva answered to a ``VivaLookupRequest``: each day's transactions, or why it could not be listed.
package struct VivaLookupAnswer: Sendable {
    var request: VivaLookupRequest
    var transactions: [String: [DayTransaction]]
    /// The days that could not be listed, with the client's error (never a secret).
    var failures: [String: String]

    /// Creates an answer.
    package init(
        request: VivaLookupRequest, transactions: [String: [DayTransaction]], failures: [String: String]
    ) {
        self.request = request
        self.transactions = transactions
        self.failures = failures
    }
}
