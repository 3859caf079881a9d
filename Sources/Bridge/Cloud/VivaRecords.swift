import Dispatch
import Foundation
import Logging
import Synchronization
import VivaCloud
import ZeroMQ

/// The bridge's side of Viva's cloud, off the loop's thread: it lists the days a ``VivaLookupRequest`` names
/// with the cloud client (async, on the client's own event loops), leaves the ``VivaLookupAnswer`` for the
/// loop and wakes it through an inproc PAIR the loop polls (bound by the loop at `wakeEndpoint`). The loop
/// takes the answers (``takeAnswers()``) and hands them to the correlator as an input, like any other.
///
/// ``shutdown()`` must be called before the ZeroMQ context ends: it closes the waking end and the client.
final class VivaRecords: Sendable {
    private let client: VivaCloudClient
    private let signal: Mutex<Socket?>
    private let answers = Mutex<[VivaLookupAnswer]>([])
    /// Where the look-ups' tasks run: a thread of their own, so that a pool held by blocking calls never
    /// delays Viva's answers.
    private let executor: ThreadTaskExecutor

    /// Makes the client (no request is sent yet) and connects the waking end to `wakeEndpoint` in `context`.
    init(
        configuration: VivaCloudConfiguration, context: Context, wakeEndpoint: String, logger: Logger,
        metrics: BridgeMetrics
    ) throws {
        let signal = try Socket(context, .pair)
        do {
            try signal.connect(wakeEndpoint)
            client = try VivaCloudClient(
                settings: try configuration.clientSettings(), logger: logger,
                observer: { exchange in metrics.cloudRequest(call: exchange.call, status: exchange.httpStatus) })
        } catch {
            signal.close()
            throw error
        }
        self.signal = Mutex(signal)
        executor = ThreadTaskExecutor(name: "viva-records")
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

    /// Closes the waking end and the client (waiting for it); answers still under way are dropped, and their
    /// commands are looked up again at the next start.
    func shutdown() {
        signal.withLock { socket in
            socket?.close()
            socket = nil
        }
        let client = client
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: executor) {
            await client.shutdown()
            done.signal()
        }
        done.wait()
        executor.stop()
    }

    private func deliver(_ answer: VivaLookupAnswer) {
        answers.withLock { $0.append(answer) }
        signal.withLock { socket in _ = try? socket?.send([[1]], wait: false) }
    }
}
