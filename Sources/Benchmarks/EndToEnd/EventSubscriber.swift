import Foundation
import Synchronization
import ZeroMQ

/// Clients a run attaches in every other slice of its measured window (``AlternatingWindow``): the slices
/// between are its baseline.
protocol SliceClients: AnyObject, Sendable {
    /// Starts the clients; returns once they have what joining gives them (a snapshot, a first event).
    func attach()
    /// Stops the clients and waits until they have ended.
    func detach()
    /// Stops them for good; what they saw, for the run's notes.
    func finish() -> String
}

/// A dashboard on the bridge's events socket: one SUB client subscribed to every event, reading everything
/// on a thread of its own (as `vivabridge watch` does), while attached.
final class EventSubscriber: SliceClients, @unchecked Sendable {
    private let context: Context
    private let endpoint: String
    private let detaching = Atomic<Bool>(false)
    /// The client while attached; touched only by the thread that attaches and detaches.
    private var worker: Worker<Int>?
    private var received = 0

    init(context: Context, endpoint: String) {
        self.context = context
        self.endpoint = endpoint
    }

    func attach() {
        guard worker == nil else { return }
        detaching.store(false, ordering: .relaxed)
        let joined = DispatchSemaphore(value: 0)
        worker = Worker(name: "bench-subscriber") { [self] in follow(joined: joined) }
        _ = joined.wait(timeout: .now() + 5)
    }

    func detach() {
        guard let worker else { return }
        detaching.store(true, ordering: .relaxed)
        received += worker.join()
        self.worker = nil
    }

    func finish() -> String {
        detach()
        return "\(received) events received by the subscriber"
    }

    /// Reads events until detached; signals `joined` at the first one (its subscription took effect) or on
    /// failing. Returns how many it read.
    private func follow(joined: DispatchSemaphore) -> Int {
        var count = 0
        defer { if count == 0 { joined.signal() } }
        guard let socket = try? Socket(context, .sub) else { return 0 }
        defer { socket.close() }
        guard (try? socket.subscribe("")) != nil, (try? socket.setReceiveTimeout(100)) != nil,
            (try? socket.connect(endpoint)) != nil
        else { return 0 }
        while !detaching.load(ordering: .relaxed) {
            guard (try? socket.receive()) != nil else { continue }
            count += 1
            if count == 1 { joined.signal() }
        }
        return count
    }
}
