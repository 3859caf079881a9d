import CZeroMQ

/// What a poll waits for on a socket.
public struct PollEvents: OptionSet, Sendable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }
    /// A message can be received.
    public static let readable = PollEvents(rawValue: Int16(ZMQ_POLLIN))
    /// A message can be sent.
    public static let writable = PollEvents(rawValue: Int16(ZMQ_POLLOUT))
}

/// Waits on several sockets at once, with a timeout (`zmq_poll`); never spins.
///
/// A poller belongs to the thread that owns its sockets (see ``Socket``'s threading rule).
public final class Poller {
    private var items: [zmq_pollitem_t] = []
    private var sockets: [Socket] = []

    /// Creates an empty poller.
    public init() {}

    /// The number of sockets being watched.
    public var count: Int { items.count }

    /// Watches `socket` for `events`; returns its index for ``ready(_:)``.
    @discardableResult
    public func add(_ socket: Socket, events: PollEvents = .readable) -> Int {
        items.append(zmq_pollitem_t(socket: socket.handle, fd: -1, events: events.rawValue, revents: 0))
        sockets.append(socket)
        return items.count - 1
    }

    /// Stops watching the socket at `index`; later sockets move down by one.
    public func remove(at index: Int) {
        items.remove(at: index)
        sockets.remove(at: index)
    }

    /// Watches `socket` in place of the one at `index` (which the caller closes), keeping every index.
    public func replace(at index: Int, with socket: Socket, events: PollEvents = .readable) {
        items[index] = zmq_pollitem_t(socket: socket.handle, fd: -1, events: events.rawValue, revents: 0)
        sockets[index] = socket
    }

    /// Changes what the socket at `index` is watched for.
    public func setEvents(_ events: PollEvents, at index: Int) {
        items[index].events = events.rawValue
    }

    /// Waits until a watched socket is ready or `timeoutMilliseconds` pass (-1: no limit).
    ///
    /// - Returns: how many sockets are ready; 0 after the timeout or when a signal interrupted the wait.
    /// - Throws: `ENOTSOCK` when a watched socket has been closed.
    @discardableResult
    public func poll(timeoutMilliseconds: Int) throws(ZMQError) -> Int {
        if sockets.contains(where: \.isClosed) { throw ZMQError(code: ENOTSOCK, operation: "zmq_poll") }
        let count = Int32(items.count)
        let rc = items.withUnsafeMutableBufferPointer { zmq_poll($0.baseAddress, count, timeoutMilliseconds) }
        if rc == -1 {
            let error = ZMQError.last("zmq_poll")
            if error.interrupted { return 0 }
            throw error
        }
        return Int(rc)
    }

    /// What the socket at `index` was found ready for by the last ``poll(timeoutMilliseconds:)``.
    public func ready(_ index: Int) -> PollEvents {
        PollEvents(rawValue: items[index].revents)
    }

    /// The indices of every socket found readable by the last poll.
    public var readableIndices: [Int] {
        items.indices.filter { items[$0].revents & Int16(ZMQ_POLLIN) != 0 }
    }
}
