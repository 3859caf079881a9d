import ZeroMQ

/// The bridge's link to one lane's relay: a DEALER that connects to the relay's endpoint, and the
/// monitor that says when the link is up or down.
///
/// The DEALER is `ZMQ_IMMEDIATE`: a URL is only queued to a completed connection, so a send that
/// fails means the URL never left. ZMTP heartbeats notice a relay that vanished without closing.
final class LaneLink {
    let lane: String
    let socket: Socket
    let monitor: Socket

    init(context: Context, lane: LaneConfiguration, heartbeatIntervalMs: Int, heartbeatTimeoutMs: Int) throws {
        self.lane = lane.id
        socket = try Socket(context, .dealer)
        try socket.setImmediate(true)
        try socket.setHeartbeatInterval(Int32(heartbeatIntervalMs))
        try socket.setHeartbeatTimeout(Int32(heartbeatTimeoutMs))
        try socket.setHeartbeatTTL(Int32(heartbeatTimeoutMs))
        try socket.setReconnectInterval(100)
        try socket.setReconnectIntervalMax(2000)
        try socket.setSendHighWaterMark(1000)
        try socket.setReceiveHighWaterMark(1000)
        try socket.setMaxMessageSize(1 << 20)
        monitor = try socket.openMonitor(events: [.handshakeSucceeded, .disconnected])
        try socket.connect(lane.endpoint)
    }

    /// Sends frames without blocking; false when the link cannot take them (down, or full).
    func send(_ frames: [[UInt8]]) -> Bool {
        (try? socket.send(frames, wait: false)) ?? false
    }

    func close() {
        monitor.close()
        socket.close()
    }
}
