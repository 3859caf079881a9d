import BridgeCore
import BridgeJournal
import Synchronization
import VivaCloud
import ZeroMQ

/// The bridge's side of Viva's records, off the loop's thread: it lists the days a ``VivaLookupRequest``
/// names with the cloud client (async, on the client's own event loops), leaves the ``VivaLookupAnswer`` for
/// the loop and wakes it (``LoopWaker``). The loop takes the answers (``takeAnswers()``) and hands them to
/// the correlator as an input, like any other.
final class VivaRecords: Sendable {
    private let client: VivaCloudClient
    private let waker: LoopWaker
    private let answers = Mutex<[VivaLookupAnswer]>([])
    /// Where the look-ups' tasks run: a thread of their own, so that a pool held by blocking calls never
    /// delays Viva's answers.
    private let executor: ThreadTaskExecutor

    /// Look-ups through `client`, run on `executor`, each answer waking the loop through `waker`.
    init(client: VivaCloudClient, waker: LoopWaker, executor: ThreadTaskExecutor) {
        self.client = client
        self.waker = waker
        self.executor = executor
    }

    /// Lists each day of `request` once, then leaves the answer for the loop and wakes it. Returns at once.
    func lookUp(_ request: VivaLookupRequest) {
        let client = client
        Task(executorPreference: executor) { [self] in
            var transactions: [String: [DayTransaction]] = [:]
            var failures: [String: String] = [:]
            for day in request.days {
                do {
                    transactions[day] = try await client.transactions(onDay: day)
                } catch {
                    failures[day] = "\(error)"
                }
            }
            deliver(VivaLookupAnswer(request: request, transactions: transactions, failures: failures))
        }
    }

    /// The answers left since the last call, oldest first.
    func takeAnswers() -> [VivaLookupAnswer] {
        return answers.withLock { taken in
            defer { taken.removeAll() }
            return taken
        }
    }

    private func deliver(_ answer: VivaLookupAnswer) {
        answers.withLock { $0.append(answer) }
        waker.poke()
    }
}
