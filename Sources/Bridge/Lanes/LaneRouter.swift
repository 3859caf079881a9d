import BridgeCore
import BridgeJournal
import ZeroMQ

/// One ROUTER through which the bridge reaches many lanes' relays, and the monitor that says when each
/// connection comes up or drops (events name the endpoint as it was connected).
///
/// A DEALER a lane made every relay message land on a socket that had been idle, and libzmq paid a
/// `poll` and a `getpid` or more for each (docs/PERFORMANCE.md 6.3); one ROUTER for all of them reads
/// every lane's messages in one go. Each connection is named by the routing id the bridge gives it
/// (`ZMQ_CONNECT_ROUTING_ID`), a new one each time a lane's link is made, so that what the ROUTER reads
/// says its lane.
///
/// libzmq ignores `ZMQ_CONNECT_ROUTING_ID` on a socket with `ZMQ_IMMEDIATE` (libzmq 4.3: the peer is
/// then named by its own id), so the ROUTER queues for a connection that is being made. The link keeps
/// the promise `ZMQ_IMMEDIATE` gave instead: it sends only while the monitor says it is up
/// (``LaneLink/send(_:)``), and drops a connection that went down before it is made anew.
/// `ZMQ_ROUTER_MANDATORY` makes a send to a connection the router no longer has fail.
///
/// Events name an endpoint, not a connection: one the loop reads more than 100 ms late (libzmq reconnects
/// on its own by then) can be taken for the next connection's. The worst it does is keep the lane down a
/// few seconds more (``LaneLink/dropped()`` backs off), and a URL the ROUTER queued meanwhile never leaves:
/// its sale ends `unknown`, never sent twice.
///
/// CURVE is per socket in libzmq, and the relay's key per connection: a bridge with keys has a second
/// ROUTER for the lanes that pin their relay's key, and sets that key before each connection.
final class LaneRouter {
    /// The largest message a relay may send; a larger one drops its connection, which is then made anew.
    static let maxMessageBytes: Int64 = 1 << 20
    /// How long a connection may take to complete its handshake before it is dropped.
    static let handshakeTimeoutMs = 2000

    let socket: Socket
    let monitor: Socket
    /// Whether its connections are CURVE clients (each to a relay whose key a lane pins).
    let isCurve: Bool

    /// Makes a ROUTER with the links' options; a CURVE one (`security` given) carries the bridge's keys.
    init(context: Context, security: SecuritySettings?, heartbeatIntervalMs: Int, heartbeatTimeoutMs: Int) throws {
        socket = try Socket(context, .router)
        isCurve = security != nil
        if let security {
            try socket.setCurvePublicKey(security.publicKey)
            try socket.setCurveSecretKey(security.secretKey)
        }
        try socket.setRouterMandatory(true)
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
        try socket.setMaxMessageSize(Self.maxMessageBytes)
        monitor = try socket.openMonitor(events: [.handshakeSucceeded, .disconnected])
    }

    /// Connects to `endpoint`, the connection named `routingId`; `relayKey` is the key the relay must
    /// hold (a CURVE router only).
    func connect(_ endpoint: String, routingId: [UInt8], relayKey: String?) throws {
        if isCurve, let relayKey { try socket.setCurveServerKey(relayKey) }
        try socket.setConnectRoutingId(routingId)
        try socket.connect(endpoint)
    }

    /// Stops connecting to `endpoint` and drops its connection; nothing when it is not connected.
    func disconnect(_ endpoint: String) {
        try? socket.disconnect(endpoint)
    }

    /// Sends frames to the connection named `routingId` without blocking; false when it cannot take them
    /// (gone, or full).
    func send(to routingId: [UInt8], _ frames: [[UInt8]]) -> Bool {
        (try? socket.send(routedTo: routingId, frames, wait: false)) ?? false
    }

    /// Closes the router: the monitor is stopped first, then the socket, then the monitor's reader, so that
    /// no event of the closing socket is ever sent to a reader that is gone (libzmq sends monitor events
    /// from its I/O thread). Closed the other way round, about one run in ten of a busy machine saw every
    /// new connection of the bridge's context hang in its handshake (SecurityTests "a reload that pins the
    /// key…"); in this order 52 runs did not.
    func close() {
        try? socket.stopMonitor()
        socket.close()
        monitor.close()
    }
}
