import BridgeCore
import BridgeJournal
import ZeroMQ

/// The bridge's link to one lane's relay: a connection of a ``LaneRouter`` to the relay's endpoint, named
/// by a routing id of its own, which the router's monitor says is up or down.
///
/// The link sends only while it is up, so a send that fails means the URL never left. ZMTP heartbeats
/// notice a relay that vanished without closing. libzmq does not reconnect after a protocol error (a
/// frame over the size limit, for one), so the loop makes the link anew (``remake(routingId:)``) when it
/// drops. A link that had been up a while is made anew at once; a connection that failed before the link
/// came up, or just after (an endpoint that answers with something that is not ZeroMQ, a relay holding
/// another key), is a failed attempt: the link waits, connecting no more, and is made anew as a link that
/// never came up is (``isStalled``).
final class LaneLink {
    let lane: String
    var endpoint: String { configuration.endpoint }
    let router: LaneRouter
    /// The name of its current connection on the router, and of the one before it (a message the old one
    /// left on the router still says its lane).
    private(set) var routingId: [UInt8]
    private(set) var previousRoutingId: [UInt8]?
    private let configuration: LaneConfiguration
    /// When the current connection was made; when its link came up, nil while it is not up; and how many
    /// times in a row it was made anew for not coming up, or for failing before it was steady.
    private var madeAt = ContinuousClock.now
    private var upSince: ContinuousClock.Instant?
    private var revivals = 0
    /// Whether the current connection's attempt failed: it connects no more and waits to be made anew.
    private var failed = false

    /// Connects `lane`'s relay through `router`, the connection named `routingId`.
    init(router: LaneRouter, lane: LaneConfiguration, routingId: [UInt8]) throws {
        self.lane = lane.id
        self.router = router
        self.routingId = routingId
        configuration = lane
        try router.connect(lane.endpoint, routingId: routingId, relayKey: lane.relayPublicKey)
    }

    /// How long a link must have been up for its drop to be that of a link that worked (made anew at once)
    /// rather than a failed attempt (backed off).
    static let steadyAfter = Duration.seconds(1)

    /// Sends frames without blocking; false when the link is not up or cannot take them (full).
    func send(_ frames: [[UInt8]]) -> Bool {
        guard upSince != nil else { return false }
        return router.send(to: routingId, frames)
    }

    /// Drops the current connection and connects anew to the same endpoint, the new connection named
    /// `routingId`. The caller reads what the router still holds first.
    func remake(routingId newId: [UInt8]) throws {
        router.disconnect(configuration.endpoint)
        previousRoutingId = routingId
        routingId = newId
        madeAt = .now
        upSince = nil
        failed = false
        try router.connect(configuration.endpoint, routingId: newId, relayKey: configuration.relayPublicKey)
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
        router.disconnect(configuration.endpoint)
        return .backOff(wasUp: upFor != nil, retryIn: max(.zero, revivalWait - (ContinuousClock.now - madeAt)))
    }

    /// Whether this is the first failed attempt in a row (none made anew for not coming up before it).
    var isFirstFailure: Bool { revivals == 0 }

    /// Closes the link: its connection is dropped and no longer made.
    func close() {
        router.disconnect(configuration.endpoint)
    }
}
