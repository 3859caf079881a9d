/// What the simulated app asks of its surroundings; the simulator's loop carries these out.
enum TerminalEffect {
    /// Hand this callback URL to the relay (faults apply there).
    case callback(String)
    /// Call ``TerminalApp/timerFired(token:)`` with `token` after this many milliseconds.
    case schedule(milliseconds: Int, token: UInt64)
    /// The app entered this phase.
    case phase(TransactionPhase)
    /// A transaction ended and was added to the history at this absolute index.
    case recorded(SimulatedTransaction)
    /// The transaction at this absolute index changed (a sale got cancelled).
    case updated(index: Int, SimulatedTransaction)
    /// The batches changed.
    case batches(BatchBook)
    /// A `foreground` request brought the app to the front (it sends no answer).
    case foregrounded
}
