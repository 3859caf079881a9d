import BridgeCore
import BridgeJournal
import Logging
import Synchronization
import VivaCloud
import ZeroMQ

/// The cloud lanes' side of the bridge, off the loop's thread: the one ``CloudSessionPoller`` of every
/// session in flight. The loop hands it ``CloudLaneRequest``s in order (after their journal commit); what
/// the poller reports is left for the loop, which is woken (``LoopWaker``) and takes it
/// (``takeEvents()``) as an input like any other.
final class CloudLanes: Sendable {
    private let requests: AsyncStream<CloudLaneRequest>.Continuation
    private let inbox = Inbox()
    private let worker: Task<Void, Never>

    /// Starts the poller on `client`, polling every `pollMs`, and the task that hands it the loop's requests.
    init(client: VivaCloudClient, pollMs: Int, waker: LoopWaker, executor: ThreadTaskExecutor, logger: Logger) {
        let (stream, continuation) = AsyncStream<CloudLaneRequest>.makeStream()
        requests = continuation
        let poller = CloudSessionPoller(
            client: client, pollInterval: .milliseconds(pollMs), logger: logger, executor: executor
        ) {
            [inbox] event in
            inbox.events.withLock { $0.append(event) }
            waker.poke()
        }
        worker = Task(executorPreference: executor) {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await poller.run() }
                for await request in stream { await Self.carry(request, to: poller) }
                group.cancelAll()
            }
        }
    }

    /// Hands `request` to the poller, after those handed before it. Returns at once.
    func carry(_ request: CloudLaneRequest) { requests.yield(request) }

    /// What the poller reported since the last call, oldest first.
    func takeEvents() -> [CloudSessionEvent] {
        inbox.events.withLock { taken in
            defer { taken.removeAll() }
            return taken
        }
    }

    /// Stops polling (sessions in flight are resumed from the journal at the next start) and waits for it.
    func shutdown() async {
        requests.finish()
        worker.cancel()
        await worker.value
    }

    /// What the poller reported and the loop has not taken yet.
    private final class Inbox: Sendable {
        let events = Mutex<[CloudSessionEvent]>([])
    }

    private static func carry(_ request: CloudLaneRequest, to poller: CloudSessionPoller) async {
        switch request {
        case .begin(let sale): await poller.begin(sale)
        case .resume(let sale): await poller.resume(sale)
        case .abort(let sessionId): await poller.abort(sessionId: sessionId)
        case .deadlinePassed(let sessionId): await poller.deadlinePassed(sessionId: sessionId)
        case .forget(let sessionId): await poller.forget(sessionId: sessionId)
        }
    }
}
