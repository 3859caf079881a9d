import CZeroMQ

// MARK: - Raw option access

extension Socket {
    func setInt32(_ option: Int32, _ value: Int32, _ name: String) throws(ZMQError) {
        let handle = try liveHandle("set \(name)")
        var value = value
        try check(zmq_setsockopt(handle, option, &value, MemoryLayout<Int32>.size), "set \(name)")
    }

    func setInt64(_ option: Int32, _ value: Int64, _ name: String) throws(ZMQError) {
        let handle = try liveHandle("set \(name)")
        var value = value
        try check(zmq_setsockopt(handle, option, &value, MemoryLayout<Int64>.size), "set \(name)")
    }

    func setBytes(_ option: Int32, _ value: [UInt8], _ name: String) throws(ZMQError) {
        let handle = try liveHandle("set \(name)")
        let rc = value.withUnsafeBytes { zmq_setsockopt(handle, option, $0.baseAddress, $0.count) }
        try check(rc, "set \(name)")
    }

    func getInt32(_ option: Int32, _ name: String) throws(ZMQError) -> Int32 {
        let handle = try liveHandle("get \(name)")
        var value: Int32 = 0
        var size = MemoryLayout<Int32>.size
        try check(zmq_getsockopt(handle, option, &value, &size), "get \(name)")
        return value
    }

    func getInt64(_ option: Int32, _ name: String) throws(ZMQError) -> Int64 {
        let handle = try liveHandle("get \(name)")
        var value: Int64 = 0
        var size = MemoryLayout<Int64>.size
        try check(zmq_getsockopt(handle, option, &value, &size), "get \(name)")
        return value
    }

    func getBytes(_ option: Int32, capacity: Int, _ name: String) throws(ZMQError) -> [UInt8] {
        let handle = try liveHandle("get \(name)")
        var buffer = [UInt8](repeating: 0, count: capacity)
        var size = capacity
        let rc = buffer.withUnsafeMutableBytes { zmq_getsockopt(handle, option, $0.baseAddress, &size) }
        try check(rc, "get \(name)")
        return Array(buffer.prefix(size))
    }

    func getString(_ option: Int32, _ name: String) throws(ZMQError) -> String {
        var bytes = try getBytes(option, capacity: 1024, name)
        if let nul = bytes.firstIndex(of: 0) { bytes.removeSubrange(nul...) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

// MARK: - Typed options

extension Socket {
    /// How long, in milliseconds, unsent messages are kept after close (-1: forever). Default here: 0.
    public func setLinger(_ milliseconds: Int32) throws(ZMQError) {
        try setInt32(ZMQ_LINGER, milliseconds, "ZMQ_LINGER")
    }

    /// The high-water mark of outgoing messages per peer (0: no limit).
    public func setSendHighWaterMark(_ messages: Int32) throws(ZMQError) {
        try setInt32(ZMQ_SNDHWM, messages, "ZMQ_SNDHWM")
    }

    /// The high-water mark of incoming messages per peer (0: no limit).
    public func setReceiveHighWaterMark(_ messages: Int32) throws(ZMQError) {
        try setInt32(ZMQ_RCVHWM, messages, "ZMQ_RCVHWM")
    }

    /// How long a blocking receive waits, in milliseconds, before returning nothing (-1: forever).
    public func setReceiveTimeout(_ milliseconds: Int32) throws(ZMQError) {
        try setInt32(ZMQ_RCVTIMEO, milliseconds, "ZMQ_RCVTIMEO")
    }

    /// How long a blocking send waits, in milliseconds, before giving up (-1: forever).
    public func setSendTimeout(_ milliseconds: Int32) throws(ZMQError) {
        try setInt32(ZMQ_SNDTIMEO, milliseconds, "ZMQ_SNDTIMEO")
    }

    /// This socket's routing id, as its peers' ROUTER sockets will see it. Set before bind or connect.
    public func setRoutingId(_ id: [UInt8]) throws(ZMQError) {
        try setBytes(ZMQ_ROUTING_ID, id, "ZMQ_ROUTING_ID")
    }

    /// This socket's routing id.
    public func routingId() throws(ZMQError) -> [UInt8] {
        try getBytes(ZMQ_ROUTING_ID, capacity: 256, "ZMQ_ROUTING_ID")
    }

    /// The routing id a ROUTER gives the peer of its next ``connect(_:)``.
    public func setConnectRoutingId(_ id: [UInt8]) throws(ZMQError) {
        try setBytes(ZMQ_CONNECT_ROUTING_ID, id, "ZMQ_CONNECT_ROUTING_ID")
    }

    /// When true, a ROUTER fails a send to an unknown peer with `EHOSTUNREACH` instead of dropping it.
    public func setRouterMandatory(_ on: Bool) throws(ZMQError) {
        try setInt32(ZMQ_ROUTER_MANDATORY, on ? 1 : 0, "ZMQ_ROUTER_MANDATORY")
    }

    /// The largest inbound message, in bytes, before the peer is disconnected (-1: no limit).
    public func setMaxMessageSize(_ bytes: Int64) throws(ZMQError) {
        try setInt64(ZMQ_MAXMSGSIZE, bytes, "ZMQ_MAXMSGSIZE")
    }

    /// The interval, in milliseconds, between ZMTP heartbeat PINGs (0: off).
    public func setHeartbeatInterval(_ milliseconds: Int32) throws(ZMQError) {
        try setInt32(ZMQ_HEARTBEAT_IVL, milliseconds, "ZMQ_HEARTBEAT_IVL")
    }

    /// How long, in milliseconds, to wait for any traffic after a PING before dropping the connection.
    public func setHeartbeatTimeout(_ milliseconds: Int32) throws(ZMQError) {
        try setInt32(ZMQ_HEARTBEAT_TIMEOUT, milliseconds, "ZMQ_HEARTBEAT_TIMEOUT")
    }

    /// The time-to-live, in milliseconds, this socket asks its peer to apply to its PINGs.
    public func setHeartbeatTTL(_ milliseconds: Int32) throws(ZMQError) {
        try setInt32(ZMQ_HEARTBEAT_TTL, milliseconds, "ZMQ_HEARTBEAT_TTL")
    }

    /// The first interval, in milliseconds, before reconnecting a dropped connection (-1: never).
    public func setReconnectInterval(_ milliseconds: Int32) throws(ZMQError) {
        try setInt32(ZMQ_RECONNECT_IVL, milliseconds, "ZMQ_RECONNECT_IVL")
    }

    /// The ceiling, in milliseconds, of the exponential reconnect back-off (0: no back-off).
    public func setReconnectIntervalMax(_ milliseconds: Int32) throws(ZMQError) {
        try setInt32(ZMQ_RECONNECT_IVL_MAX, milliseconds, "ZMQ_RECONNECT_IVL_MAX")
    }

    /// How long a new connection may take to complete its ZMTP handshake (CURVE included) before it is
    /// dropped (`ZMQ_HANDSHAKE_IVL`; libzmq's default is 30 s; 0 waits for ever).
    public func setHandshakeInterval(_ milliseconds: Int32) throws(ZMQError) {
        try setInt32(ZMQ_HANDSHAKE_IVL, milliseconds, "ZMQ_HANDSHAKE_IVL")
    }

    /// When true, messages are queued only to completed connections: a send with no connected peer
    /// fails (`EAGAIN` when not waiting) instead of waiting for a future connection.
    public func setImmediate(_ on: Bool) throws(ZMQError) {
        try setInt32(ZMQ_IMMEDIATE, on ? 1 : 0, "ZMQ_IMMEDIATE")
    }

    /// Adds a SUB prefix filter (the empty prefix receives everything).
    public func subscribe(_ prefix: [UInt8] = []) throws(ZMQError) {
        try setBytes(ZMQ_SUBSCRIBE, prefix, "ZMQ_SUBSCRIBE")
    }

    /// Adds a SUB prefix filter given as text.
    public func subscribe(_ prefix: String) throws(ZMQError) { try subscribe(Array(prefix.utf8)) }

    /// Removes a SUB prefix filter.
    public func unsubscribe(_ prefix: [UInt8]) throws(ZMQError) {
        try setBytes(ZMQ_UNSUBSCRIBE, prefix, "ZMQ_UNSUBSCRIBE")
    }

    /// Removes a SUB prefix filter given as text.
    public func unsubscribe(_ prefix: String) throws(ZMQError) { try unsubscribe(Array(prefix.utf8)) }

    /// Makes this socket a CURVE server (it then needs ``setCurveSecretKey(_:)``).
    public func setCurveServer(_ on: Bool) throws(ZMQError) {
        try setInt32(ZMQ_CURVE_SERVER, on ? 1 : 0, "ZMQ_CURVE_SERVER")
    }

    /// This socket's long-term CURVE public key, as 40 characters of Z85.
    public func setCurvePublicKey(_ z85: String) throws(ZMQError) {
        try setCurveKey(ZMQ_CURVE_PUBLICKEY, z85, "ZMQ_CURVE_PUBLICKEY")
    }

    /// This socket's long-term CURVE secret key, as 40 characters of Z85.
    public func setCurveSecretKey(_ z85: String) throws(ZMQError) {
        try setCurveKey(ZMQ_CURVE_SECRETKEY, z85, "ZMQ_CURVE_SECRETKEY")
    }

    /// The server's CURVE public key, for a client socket, as 40 characters of Z85.
    public func setCurveServerKey(_ z85: String) throws(ZMQError) {
        try setCurveKey(ZMQ_CURVE_SERVERKEY, z85, "ZMQ_CURVE_SERVERKEY")
    }

    /// Sets a CURVE key option from Z85 text, refusing (`EINVAL`) anything but a 40-character Z85 key.
    private func setCurveKey(_ option: Int32, _ z85: String, _ name: String) throws(ZMQError) {
        guard Z85.isKey(z85) else { throw ZMQError(code: EINVAL, operation: "set \(name)") }
        try setBytes(option, Array(z85.utf8) + [0], name)
    }

    /// The ZAP domain this socket authenticates in.
    public func setZAPDomain(_ domain: String) throws(ZMQError) {
        try setBytes(ZMQ_ZAP_DOMAIN, Array(domain.utf8), "ZMQ_ZAP_DOMAIN")
    }

    /// Whether a message can be received now (`ZMQ_EVENTS` has `ZMQ_POLLIN`).
    public func canReceive() throws(ZMQError) -> Bool {
        try getInt32(ZMQ_EVENTS, "ZMQ_EVENTS") & Int32(ZMQ_POLLIN) != 0
    }

    /// Whether a message can be sent now (`ZMQ_EVENTS` has `ZMQ_POLLOUT`); with ``setImmediate(_:)``
    /// this also says that a peer is connected.
    public func canSend() throws(ZMQError) -> Bool {
        try getInt32(ZMQ_EVENTS, "ZMQ_EVENTS") & Int32(ZMQ_POLLOUT) != 0
    }
}

// MARK: - Readiness for an outside event loop

extension Socket {
    /// The file descriptor libzmq signals when this socket's state may have changed (`ZMQ_FD`), for an
    /// outside event loop (`epoll`, `poll`). It is not the socket's own connection: it becomes readable
    /// when something happened, never says what, and any call on the socket (a send, a receive, reading
    /// ``canReceive()``) may consume the signal. After it fires, and after any call on the socket, ask
    /// ``canReceive()`` before waiting on it again, or receive until a receive finds nothing (which takes
    /// in every pending signal). ``ReadyPoller`` follows these rules.
    public func signalDescriptor() throws(ZMQError) -> Int32 {
        try getInt32(ZMQ_FD, "ZMQ_FD")
    }
}
