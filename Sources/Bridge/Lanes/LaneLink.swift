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
    /// When the current socket was made, and how many times in a row it was made anew for not coming up.
    private var madeAt = ContinuousClock.now
    private var revivals = 0

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

    /// How long a lane link's connection may take to complete its handshake before it is dropped.
    static let handshakeTimeoutMs = 2000

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
        // A handshake that stalls (a relay that accepts the connection and never answers it) is dropped
        // and the link made anew, instead of leaving the lane down for libzmq's default 30 s.
        try socket.setHandshakeInterval(Int32(Self.handshakeTimeoutMs))
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
        madeAt = .now
    }

    /// Whether a link that is not up has waited long enough since it was made to be made anew: 3 s, then
    /// twice as long after each revival, up to a minute. A handshake the relay never completes, or an
    /// event the monitor never gave, then never keeps a lane down for good.
    var isStalled: Bool {
        let wait = Duration.milliseconds(min(60_000, 3_000 << min(revivals, 5)))
        return ContinuousClock.now - madeAt >= wait
    }

    /// Counts a revival (``isStalled`` waits longer next time).
    func countRevival() { revivals += 1 }

    /// The link came up: the next stall is waited for from the start.
    func cameUp() { revivals = 0 }

    /// Closes the link: the monitor is stopped first, then the socket, then the monitor's reader, so that
    /// no event of the closing socket is ever sent to a reader that is gone (libzmq sends monitor events
    /// from its I/O thread). Closed the other way round, about one run in ten of a busy machine saw every
    /// new connection of the bridge's context, lane links and clients alike, hang in its handshake after a
    /// reload closed a link (SecurityTests "a reload that pins the key…"); in this order 52 runs did not.
    func close() {
        try? socket.stopMonitor()
        socket.close()
        monitor.close()
    }
}
