#if os(Linux)
    import CZeroMQ
    import Glibc

    /// Waits on many sockets at once and returns only the readable ones: one `epoll` instance over each
    /// socket's ``Socket/signalDescriptor()``, so that a wait costs by the sockets that are ready, not by
    /// the sockets watched (`zmq_poll` asks every socket on every call). Sockets are registered and
    /// unregistered by themselves, never by an index.
    ///
    /// ## The edge rule
    /// libzmq signals a socket's descriptor only when its state may have changed, and any call on the
    /// socket (a send, a receive, reading its `ZMQ_EVENTS`) may consume that signal without the socket
    /// being drained: a message can sit in a socket whose descriptor is quiet. So:
    /// - a socket whose descriptor fired is returned without being asked: it may hold a message, and the
    ///   caller's first receive answers as cheaply as asking would (a descriptor can also fire for a change
    ///   that brought no message: the receive then finds nothing);
    /// - every socket ``wait(timeoutMilliseconds:)`` returns is asked (`ZMQ_EVENTS`,
    ///   ``Socket/canReceive()``) by the next wait, before it blocks, unless the caller named it to
    ///   ``drained(_:)``: read until a receive found nothing, which took in every pending signal;
    /// - a socket the caller sent on, or read without being told it was ready, must be named to
    ///   ``checkAgain(_:)`` before the next wait, and is asked then.
    ///
    /// Each ask and each receive that finds nothing costs libzmq two system calls (`getpid`, then `poll` of
    /// the socket's descriptor), so a socket that is read until empty costs one of them a turn, not three.
    ///
    /// ## Threading and lifetime
    /// A poller belongs to the thread that owns its sockets (see ``Socket``'s threading rule). Unregister a
    /// socket before closing it: libzmq closes a socket's descriptor later, on a thread of its own.
    public final class ReadyPoller {
        private let epoll: Int32
        /// The watched sockets by descriptor (what `epoll` reports), and each socket's descriptor.
        private var sockets: [Int32: Socket] = [:]
        private var descriptors: [ObjectIdentifier: Int32] = [:]
        /// The sockets to ask again before the next blocking wait: touched since they were last asked.
        private var touched: [ObjectIdentifier: Socket] = [:]
        private var reported: [epoll_event]
        private var closed = false

        /// Creates a poller; `batch` is the most descriptors one `epoll_wait` reports (more wait their turn).
        public init(batch: Int = 256) throws(ZMQError) {
            epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
            guard epoll >= 0 else { throw ZMQError(code: errno, operation: "epoll_create1") }
            reported = Array(repeating: epoll_event(), count: max(1, batch))
        }

        deinit { close() }

        /// The number of sockets being watched.
        public var count: Int { descriptors.count }

        /// Whether `socket` is being watched.
        public func contains(_ socket: Socket) -> Bool { descriptors[ObjectIdentifier(socket)] != nil }

        /// Watches `socket` for messages to receive; watching it twice is harmless. The next wait asks it at
        /// once: a message may already be queued.
        public func register(_ socket: Socket) throws(ZMQError) {
            let id = ObjectIdentifier(socket)
            guard descriptors[id] == nil else { return }
            let descriptor = try socket.signalDescriptor()
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.fd = descriptor
            if epoll_ctl(epoll, EPOLL_CTL_ADD, descriptor, &event) == -1 {
                guard errno == EEXIST, let stale = sockets[descriptor] else {
                    throw ZMQError(code: errno, operation: "epoll_ctl add")
                }
                // A socket closed without being unregistered left its descriptor number to this one.
                forget(stale)
                guard epoll_ctl(epoll, EPOLL_CTL_MOD, descriptor, &event) == 0 else {
                    throw ZMQError(code: errno, operation: "epoll_ctl mod")
                }
            }
            sockets[descriptor] = socket
            descriptors[id] = descriptor
            touched[id] = socket
        }

        /// Stops watching `socket` (do it before closing the socket); unknown sockets are ignored.
        public func unregister(_ socket: Socket) {
            guard let descriptor = forget(socket) else { return }
            // Fails harmlessly when the descriptor is already gone.
            _ = epoll_ctl(epoll, EPOLL_CTL_DEL, descriptor, nil)
        }

        /// Says that the caller sent on `socket`, or read it unasked: the next wait asks it again before
        /// blocking, for the call may have consumed its signal. Cheap; unknown sockets are ignored.
        public func checkAgain(_ socket: Socket) {
            let id = ObjectIdentifier(socket)
            if descriptors[id] != nil { touched[id] = socket }
        }

        /// Says that the caller read `socket` until a receive found nothing (`EAGAIN`): that receive took in
        /// every signal libzmq had for it, so the next wait needn't ask it. A send or a read after this call
        /// needs ``checkAgain(_:)`` again. Name only a socket whose last call was that empty receive.
        public func drained(_ socket: Socket) {
            touched[ObjectIdentifier(socket)] = nil
        }

        /// How many times a wait has asked a socket whether it can receive (`ZMQ_EVENTS`), since the poller
        /// was made: what ``drained(_:)`` saves shows here.
        public private(set) var asks = 0

        /// Waits until a watched socket has a message to receive, or `timeoutMilliseconds` pass (-1: no
        /// limit; 0: only looks).
        ///
        /// - Returns: the sockets that may have a message to receive, each once, in no particular order:
        ///   those asked and found readable, and those whose descriptor fired (see the edge rule); empty
        ///   after the timeout or when a signal interrupted the wait. They are asked again by the next wait,
        ///   unless named to ``drained(_:)``.
        /// - Throws: when `epoll` or libzmq fails (a terminated context, for one).
        public func wait(timeoutMilliseconds: Int) throws(ZMQError) -> [Socket] {
            guard !closed else { throw ZMQError(code: EBADF, operation: "epoll_wait on a closed poller") }
            var ready: [Socket] = []
            var found = Set<ObjectIdentifier>()
            for (id, socket) in touched where !socket.isClosed {
                if try ask(socket) {
                    ready.append(socket)
                    found.insert(id)
                }
            }
            touched.removeAll(keepingCapacity: true)
            let deadline = timeoutMilliseconds < 0 ? nil : ContinuousClock.now + .milliseconds(timeoutMilliseconds)
            while true {
                let wait = ready.isEmpty ? Self.milliseconds(until: deadline) : 0
                let count = reported.withUnsafeMutableBufferPointer {
                    epoll_wait(epoll, $0.baseAddress, Int32($0.count), Int32(clamping: wait))
                }
                if count == -1 {
                    if errno == EINTR { break }
                    throw ZMQError(code: errno, operation: "epoll_wait")
                }
                for index in 0..<Int(count) {
                    guard let socket = sockets[reported[index].data.fd] else { continue }
                    if socket.isClosed {
                        unregister(socket)
                        continue
                    }
                    if found.insert(ObjectIdentifier(socket)).inserted { ready.append(socket) }
                }
                if !ready.isEmpty || count == 0 || wait == 0 { break }
            }
            for socket in ready { touched[ObjectIdentifier(socket)] = socket }
            return ready
        }

        /// Asks `socket` whether it can receive (`ZMQ_EVENTS`), counted in ``asks``: every ask goes here.
        private func ask(_ socket: Socket) throws(ZMQError) -> Bool {
            asks += 1
            return try socket.canReceive()
        }

        /// Closes the `epoll` instance; the sockets stay open. Closing twice is harmless.
        public func close() {
            guard !closed else { return }
            closed = true
            _ = Glibc.close(epoll)
        }

        /// Drops `socket` from the tables; returns the descriptor it was watched under.
        @discardableResult
        private func forget(_ socket: Socket) -> Int32? {
            let id = ObjectIdentifier(socket)
            guard let descriptor = descriptors.removeValue(forKey: id) else { return nil }
            sockets[descriptor] = nil
            touched[id] = nil
            return descriptor
        }

        /// What is left of a wait that ends at `deadline`, in milliseconds, rounded up; -1 without a deadline.
        private static func milliseconds(until deadline: ContinuousClock.Instant?) -> Int {
            guard let deadline else { return -1 }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return 0 }
            let (seconds, attoseconds) = left.components
            return Int(seconds) * 1000 + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        }
    }
#endif
