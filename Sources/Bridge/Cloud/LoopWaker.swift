import BridgeCore
import BridgeJournal
import Synchronization
import ZeroMQ

/// The waking end of an inproc PAIR the loop polls: a thread off the loop that left something for it
/// (Viva's answers, a cloud session's news) pokes it, and the loop takes what was left. Safe from any
/// thread; ``close()`` must come before the ZeroMQ context ends.
final class LoopWaker: Sendable {
    private let socket: Mutex<Socket?>

    /// Connects the waking end to `endpoint` (bound by the loop) in `context`.
    init(context: Context, endpoint: String) throws {
        let socket = try Socket(context, .pair)
        do {
            try socket.connect(endpoint)
        } catch {
            socket.close()
            throw error
        }
        self.socket = Mutex(socket)
    }

    /// Wakes the loop (a message it reads and drops); nothing after ``close()``.
    func poke() {
        socket.withLock { socket in _ = try? socket?.send([[1]], wait: false) }
    }

    /// Closes the waking end.
    func close() {
        socket.withLock { socket in
            socket?.close()
            socket = nil
        }
    }
}
