import ZeroMQ

/// The bridge's link to one lane's relay: a DEALER that connects to the relay's endpoint, and the
/// monitor that says when the link is up or down.
///
/// The DEALER is `ZMQ_IMMEDIATE`: a URL is only queued to a completed connection, so a send that
/// fails means the URL never left. ZMTP heartbeats notice a relay that vanished without closing.
/// libzmq does not reconnect after a protocol error (a frame over the size limit, for one), so the
/// loop makes the link anew (``remake()``) whenever it drops.
final class LaneLink {
    /// The largest message a relay may send; a larger one drops the link, which is then made anew.
    static let maxMessageBytes: Int64 = 1 << 20

    let lane: String
    private(set) var socket: Socket
    private(set) var monitor: Socket
    private let context: Context
    private let configuration: LaneConfiguration
    /// The bridge's own key, for a lane that pins its relay's key (a CURVE link).
    private let security: SecuritySettings?
    private let heartbeatIntervalMs: Int
    private let heartbeatTimeoutMs: Int

    init(
        context: Context, lane: LaneConfiguration, security: SecuritySettings?, heartbeatIntervalMs: Int,
        heartbeatTimeoutMs: Int
    ) throws {
        self.lane = lane.id
        self.context = context
        configuration = lane
        self.security = security
        self.heartbeatIntervalMs = heartbeatIntervalMs
        self.heartbeatTimeoutMs = heartbeatTimeoutMs
        (socket, monitor) = try Self.connect(
            context, lane, security, heartbeatIntervalMs: heartbeatIntervalMs, heartbeatTimeoutMs: heartbeatTimeoutMs)
    }

    private static func connect(
        _ context: Context, _ lane: LaneConfiguration, _ security: SecuritySettings?, heartbeatIntervalMs: Int,
        heartbeatTimeoutMs: Int
    ) throws -> (Socket, Socket) {
        let socket = try Socket(context, .dealer)
        if let relayKey = lane.relayPublicKey, let security {
            // A CURVE client: the handshake succeeds only with the relay that holds the pinned key.
            try socket.setCurveServerKey(relayKey)
            try socket.setCurvePublicKey(security.publicKey)
            try socket.setCurveSecretKey(security.secretKey)
        }
        try socket.setImmediate(true)
        try socket.setHeartbeatInterval(Int32(heartbeatIntervalMs))
        try socket.setHeartbeatTimeout(Int32(heartbeatTimeoutMs))
        try socket.setHeartbeatTTL(Int32(heartbeatTimeoutMs))
        try socket.setReconnectInterval(100)
        try socket.setReconnectIntervalMax(2000)
        try socket.setSendHighWaterMark(1000)
        try socket.setReceiveHighWaterMark(1000)
        try socket.setMaxMessageSize(maxMessageBytes)
        let monitor = try socket.openMonitor(events: [.handshakeSucceeded, .disconnected])
        try socket.connect(lane.endpoint)
        return (socket, monitor)
    }

    /// Sends frames without blocking; false when the link cannot take them (down, or full).
    func send(_ frames: [[UInt8]]) -> Bool {
        (try? socket.send(frames, wait: false)) ?? false
    }

    /// Replaces the socket and its monitor with new ones connecting to the same endpoint. The caller
    /// reads what the old socket still holds first, and watches the new sockets in place of the old.
    func remake() throws {
        let (newSocket, newMonitor) = try Self.connect(
            context, configuration, security, heartbeatIntervalMs: heartbeatIntervalMs,
            heartbeatTimeoutMs: heartbeatTimeoutMs)
        close()
        socket = newSocket
        monitor = newMonitor
    }

    func close() {
        monitor.close()
        socket.close()
    }
}
