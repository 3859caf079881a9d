import ZeroMQ

/// The bridge's link to one lane's relay: a DEALER that connects to the relay's endpoint, and the
/// monitor that says when the link is up or down.
///
/// The DEALER is `ZMQ_IMMEDIATE`: a URL is only queued to a completed connection, so a send that
/// fails means the URL never left. ZMTP heartbeats notice a relay that vanished without closing.
/// libzmq does not reconnect after a protocol error (a frame over the size limit, for one), so the
/// loop makes the link anew (``remake()``) when it drops. A link that had been up a while is made anew at
/// once; a connection that failed before the link came up, or just after (an endpoint that answers
/// with something that is not ZeroMQ, a relay holding another key), is a failed attempt: the link waits,
/// connecting no more, and is made anew as a link that never came up is (``isStalled``).
final class LaneLink {
    /// The largest message a relay may send; a larger one drops the link, which is then made anew.
    static let maxMessageBytes: Int64 = 1 << 20

    let lane: String
    var endpoint: String { configuration.endpoint }
    private(set) var socket: Socket
    private(set) var monitor: Socket
    private let context: Context
    private let configuration: LaneConfiguration
    /// The bridge's own key, for a lane that pins its relay's key (a CURVE link).
    private let security: SecuritySettings?
    private let heartbeatIntervalMs: Int
    private let heartbeatTimeoutMs: Int
    /// When the current socket was made; when its link came up, nil while it is not up; and how many times
    /// in a row it was made anew for not coming up, or for failing before it was steady.
    private var madeAt = ContinuousClock.now
    private var upSince: ContinuousClock.Instant?
    private var revivals = 0
    /// Whether the current socket's attempt failed: it connects no more and waits to be made anew.
    private var failed = false

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

    /// How long a link must have been up for its drop to be that of a link that worked (made anew at once)
    /// rather than a failed attempt (backed off).
    static let steadyAfter = Duration.seconds(1)

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
        upSince = nil
        failed = false
    }

    /// How long a link that is not up waits, from when it was made, to be made anew: 3 s, then twice as
    /// long after each revival, up to a minute.
    private var revivalWait: Duration { .milliseconds(min(60_000, 3_000 << min(revivals, 5))) }

    /// Whether a link that is not up has waited long enough since it was made to be made anew
    /// (``revivalWait``). A handshake the relay never completes, or an event the monitor never gave, then
    /// never keeps a lane down for good.
    var isStalled: Bool { ContinuousClock.now - madeAt >= revivalWait }

    /// Counts a revival (``isStalled`` waits longer next time).
    func countRevival() { revivals += 1 }

    /// The link came up; false when its attempt had already failed (a connection libzmq made before the
    /// socket stopped connecting, closing now): it does not count, and the link stays down.
    func cameUp() -> Bool {
        guard !failed else { return false }
        upSince = .now
        return true
    }

    /// What the loop does about a link the monitor reported disconnected.
    enum Drop: Equatable {
        /// The link had been up for ``LaneLink/steadyAfter`` or longer: it is made anew now, and the next
        /// stall is waited for from the start.
        case remakeNow
        /// The connection failed before the link came up (`wasUp` false: a handshake that failed or timed
        /// out), or right after: the socket connects no more, and the link is made anew when it
        /// ``LaneLink/isStalled``, `retryIn` from now, as a link that never came up.
        case backOff(wasUp: Bool, retryIn: Duration)
        /// The attempt had already failed: nothing more to do.
        case ignore
    }

    /// The monitor reported the link disconnected: decides whether it is made anew now or backed off. A
    /// failed attempt stops libzmq's own reconnecting (every 100-200 ms after a connection that was
    /// accepted and then broke), so that only ``isStalled`` makes the next attempt.
    func dropped() -> Drop {
        guard !failed else { return .ignore }
        let upFor = upSince.map { ContinuousClock.now - $0 }
        upSince = nil
        if let upFor, upFor >= Self.steadyAfter {
            revivals = 0
            return .remakeNow
        }
        failed = true
        try? socket.disconnect(configuration.endpoint)
        return .backOff(wasUp: upFor != nil, retryIn: max(.zero, revivalWait - (ContinuousClock.now - madeAt)))
    }

    /// Whether this is the first failed attempt in a row (none made anew for not coming up before it).
    var isFirstFailure: Bool { revivals == 0 }

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
