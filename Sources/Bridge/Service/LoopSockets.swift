import BridgeCore
import BridgeJournal
import ZeroMQ

/// The sockets the bridge loop reads, each with what handles it: a turn waits on a ``ReadyPoller`` and
/// calls the handlers of the ready sockets only, so its cost does not grow with idle lanes.
final class LoopSockets {
    /// When in a turn a ready socket is read: control first (the journal writer's reports, the control
    /// words), then the intake (events subscriptions, commands), then the relay links, then the link
    /// monitors, so that a link's messages are read before the news that it dropped. Sockets of one
    /// stage are read in the order they were watched.
    enum Stage: Int {
        case control, intake, link, monitor
    }

    private struct Handler {
        let stage: Stage
        let order: Int
        let handle: () -> Void
    }

    private let poller: ReadyPoller
    private var handlers: [ObjectIdentifier: Handler] = [:]
    private var watched = 0

    /// Creates an empty set.
    init() throws {
        poller = try ReadyPoller()
    }

    /// The number of sockets watched.
    var count: Int { handlers.count }

    /// Watches `socket`: `handle` is called in the turns that find it readable (and must read it).
    func watch(_ socket: Socket, stage: Stage = .intake, _ handle: @escaping () -> Void) throws {
        try poller.register(socket)
        watched += 1
        handlers[ObjectIdentifier(socket)] = Handler(stage: stage, order: watched, handle: handle)
    }

    /// Stops watching `socket`, before it is closed; a turn under way no longer calls its handler.
    func unwatch(_ socket: Socket) {
        poller.unregister(socket)
        handlers[ObjectIdentifier(socket)] = nil
    }

    /// Says that the loop sent on `socket`, or read it outside its handler: the next turn asks it again
    /// before waiting (``ReadyPoller/checkAgain(_:)``).
    func touched(_ socket: Socket) {
        poller.checkAgain(socket)
    }

    /// Says that the loop read `socket` until a receive found nothing: the next turn needn't ask it
    /// (``ReadyPoller/drained(_:)``).
    func drained(_ socket: Socket) {
        poller.drained(socket)
    }

    /// Waits until a socket is readable or `timeoutMilliseconds` pass, then calls the handler of each
    /// readable socket, by stage.
    func turn(timeoutMilliseconds: Int) throws {
        let ready = try poller.wait(timeoutMilliseconds: timeoutMilliseconds)
        var due: [(stage: Int, order: Int, socket: ObjectIdentifier)] = []
        for socket in ready {
            let id = ObjectIdentifier(socket)
            if let handler = handlers[id] { due.append((handler.stage.rawValue, handler.order, id)) }
        }
        due.sort { ($0.stage, $0.order) < ($1.stage, $1.order) }
        for (_, order, id) in due {
            // Looked up again: a handler may have unwatched a socket found ready in this turn.
            guard let handler = handlers[id], handler.order == order else { continue }
            handler.handle()
        }
    }

    /// Stops watching every socket; the sockets stay open.
    func close() {
        handlers = [:]
        poller.close()
    }
}
