import CZeroMQ

/// One libzmq socket.
///
/// ## Threading rule
/// libzmq sockets are **not** thread-safe. A `Socket` has exactly one owner at a time: the thread (or
/// the poll loop) that created it and is the only one to call it. It is deliberately not `Sendable`:
/// create it on the thread that uses it, and pass plain values (`[UInt8]` frames, parsed structs)
/// between owners, never the socket and never a `zmq_msg_t`. To wake a loop from another thread,
/// connect an inproc `PAIR` or `PUSH` socket owned by that other thread. The ``Context`` is the only
/// shared object.
///
/// Every socket starts with a linger of 0, so closing it or terminating its context never hangs on
/// unsent messages; set ``linger`` to keep them longer.
public final class Socket {
    /// The libzmq handle, for code in this module.
    let handle: UnsafeMutableRawPointer
    /// The kind of socket.
    public let type: SocketType
    /// The context that made this socket; kept alive while the socket lives.
    public let context: Context
    private var closed = false

    /// Creates a socket of `type` in `context`.
    public init(_ context: Context, _ type: SocketType) throws(ZMQError) {
        guard let raw = zmq_socket(try context.liveHandle("zmq_socket \(type)"), type.rawValue) else {
            throw ZMQError.last("zmq_socket \(type)")
        }
        handle = raw
        self.type = type
        self.context = context
        try setInt32(ZMQ_LINGER, 0, "ZMQ_LINGER")
    }

    /// Binds to `endpoint` (`tcp://127.0.0.1:*` picks a free port: read ``lastEndpoint`` after).
    public func bind(_ endpoint: String) throws(ZMQError) {
        let handle = try liveHandle("bind \(endpoint)")
        try check(zmq_bind(handle, endpoint), "bind \(endpoint)")
    }

    /// Connects to `endpoint`; libzmq reconnects by itself when the peer goes away.
    public func connect(_ endpoint: String) throws(ZMQError) {
        let handle = try liveHandle("connect \(endpoint)")
        try check(zmq_connect(handle, endpoint), "connect \(endpoint)")
    }

    /// Stops listening on an endpoint that ``bind(_:)`` opened.
    public func unbind(_ endpoint: String) throws(ZMQError) {
        let handle = try liveHandle("unbind \(endpoint)")
        try check(zmq_unbind(handle, endpoint), "unbind \(endpoint)")
    }

    /// Drops a connection that ``connect(_:)`` opened.
    public func disconnect(_ endpoint: String) throws(ZMQError) {
        let handle = try liveHandle("disconnect \(endpoint)")
        try check(zmq_disconnect(handle, endpoint), "disconnect \(endpoint)")
    }

    /// The endpoint of the last bind or connect, with the real port of a wildcard bind.
    public var lastEndpoint: String {
        get throws(ZMQError) { try getString(ZMQ_LAST_ENDPOINT, "ZMQ_LAST_ENDPOINT") }
    }

    /// Whether ``close()`` has been called.
    public var isClosed: Bool { closed }

    /// The libzmq handle of an open socket; `ENOTSOCK` once closed, for libzmq frees a closed socket and
    /// must never see its handle again.
    func liveHandle(_ operation: @autoclosure () -> String) throws(ZMQError) -> UnsafeMutableRawPointer {
        guard !closed else { throw ZMQError(code: ENOTSOCK, operation: operation()) }
        return handle
    }

    /// Closes the socket; later calls fail with `ENOTSOCK`. Closing twice is harmless.
    public func close() {
        guard !closed else { return }
        closed = true
        _ = zmq_close(handle)
    }

    deinit { close() }
}

// MARK: - Sending and receiving

extension Socket {
    /// Sends one message made of `frames`, atomically.
    ///
    /// - Parameter wait: when false, fails fast instead of blocking on a full queue or a missing peer.
    /// - Returns: false when the message could not be queued without blocking (`EAGAIN`, including a
    ///   send timeout); true once libzmq has taken it.
    @discardableResult
    public func send(_ frames: [[UInt8]], wait: Bool = true) throws(ZMQError) -> Bool {
        precondition(!frames.isEmpty, "a message has at least one frame")
        let handle = try liveHandle("send")
        let last = frames.count - 1
        for (index, frame) in frames.enumerated() {
            var flags: Int32 = index < last ? ZMQ_SNDMORE : 0
            if !wait { flags |= ZMQ_DONTWAIT }
            while true {
                let rc = frame.withUnsafeBytes { zmq_send(handle, $0.baseAddress, $0.count, flags) }
                if rc != -1 { break }
                let error = ZMQError.last("send")
                if error.interrupted { continue }
                if error.wouldBlock && index == 0 { return false }
                throw error
            }
        }
        return true
    }

    /// Sends one message to the peer a ROUTER names `routingId`: that frame first, then `frames`.
    ///
    /// - Returns: false when the message could not be queued without blocking (`EAGAIN`); true once
    ///   libzmq has taken it. A ROUTER with `ZMQ_ROUTER_MANDATORY` throws `EHOSTUNREACH` for a peer it
    ///   does not have.
    @discardableResult
    public func send(routedTo routingId: [UInt8], _ frames: [[UInt8]], wait: Bool = true) throws(ZMQError) -> Bool {
        precondition(!frames.isEmpty, "a routed message has at least one frame after its routing id")
        let handle = try liveHandle("send")
        let flags: Int32 = ZMQ_SNDMORE | (wait ? 0 : ZMQ_DONTWAIT)
        while routingId.withUnsafeBytes({ zmq_send(handle, $0.baseAddress, $0.count, flags) }) == -1 {
            let error = ZMQError.last("send")
            if error.interrupted { continue }
            if error.wouldBlock { return false }
            throw error
        }
        // Once the routing id is taken, the rest of the message is too.
        return try send(frames, wait: wait)
    }

    /// Sends one message whose frames are the UTF-8 bytes of `frames`.
    @discardableResult
    public func send(_ frames: [String], wait: Bool = true) throws(ZMQError) -> Bool {
        try send(frames.map { Array($0.utf8) }, wait: wait)
    }

    /// Receives one whole message, every frame of any size.
    ///
    /// - Parameter wait: when false, returns at once if nothing is queued.
    /// - Returns: the frames, or nil when nothing arrived (non-blocking, or the receive timeout passed).
    public func receive(wait: Bool = true) throws(ZMQError) -> [[UInt8]]? {
        guard let first = try receiveFrame(wait: wait) else { return nil }
        var frames = [first.bytes]
        var more = first.more
        while more {
            guard let next = try receiveFrame(wait: true) else { break }
            frames.append(next.bytes)
            more = next.more
        }
        return frames
    }

    /// Receives one whole message of a ROUTER: the routing id of the peer it came from, and its frames.
    ///
    /// - Returns: nil when nothing arrived (non-blocking, or the receive timeout passed).
    public func receiveRouted(wait: Bool = true) throws(ZMQError) -> (routingId: [UInt8], frames: [[UInt8]])? {
        guard let head = try receiveFrame(wait: wait) else { return nil }
        var frames: [[UInt8]] = []
        var more = head.more
        while more {
            guard let next = try receiveFrame(wait: true) else { break }
            frames.append(next.bytes)
            more = next.more
        }
        return (head.bytes, frames)
    }

    /// Receives a whole message like ``receive(wait:)``, with the ZAP user id its peer was admitted under
    /// (`User-Id`, the name a ``ZAPHandler`` answered); nil on a socket without authentication.
    public func receiveWithUserId(wait: Bool = true) throws(ZMQError) -> (frames: [[UInt8]], userId: String?)? {
        guard let first = try receiveFrame(wait: wait, userId: true) else { return nil }
        var frames = [first.bytes]
        var userId = first.userId
        var more = first.more
        while more {
            guard let next = try receiveFrame(wait: true, userId: true) else { break }
            frames.append(next.bytes)
            userId = userId ?? next.userId
            more = next.more
        }
        return (frames, userId)
    }

    /// Receives one frame through a `zmq_msg_t`, so its size has no limit but the socket's.
    ///
    /// - Returns: the bytes and whether more frames of the same message follow, or nil when nothing
    ///   arrived in time.
    public func receiveFrame(wait: Bool = true) throws(ZMQError) -> (bytes: [UInt8], more: Bool)? {
        try receiveFrame(wait: wait, userId: false).map { ($0.bytes, $0.more) }
    }

    private func receiveFrame(wait: Bool, userId: Bool) throws(ZMQError) -> (
        bytes: [UInt8], more: Bool, userId: String?
    )? {
        let handle = try liveHandle("receive")
        var message = zmq_msg_t()
        zmq_msg_init(&message)
        defer { zmq_msg_close(&message) }
        while zmq_msg_recv(&message, handle, wait ? 0 : ZMQ_DONTWAIT) == -1 {
            let error = ZMQError.last("receive")
            if error.interrupted { continue }
            if error.wouldBlock { return nil }
            throw error
        }
        let size = zmq_msg_size(&message)
        let bytes: [UInt8]
        if size == 0 {
            bytes = []
        } else {
            let data = zmq_msg_data(&message)!
            bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: size))
        }
        var peer: String?
        if userId, let property = zmq_msg_gets(&message, "User-Id") {
            let text = String(cString: property)
            peer = text.isEmpty ? nil : text
        }
        return (bytes, zmq_msg_more(&message) == 1, peer)
    }
}
