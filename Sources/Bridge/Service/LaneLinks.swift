import BridgeCore
import BridgeJournal
import ZeroMQ

/// Every lane's link the loop owns, and the routers they go through: links in the order the lanes were
/// opened (ticks walk them in it), by lane (a send finds its link at once), by routing id (what a router
/// reads says its lane) and by router and endpoint (what a router's monitor reports says its lane).
///
/// A router holds one link an endpoint: libzmq names a connection's events by its endpoint and drops every
/// connection to an endpoint at once. The configuration refuses two lanes on one endpoint, but a reload
/// can link a lane to an endpoint another still holds while it finishes (a lane renamed): that link goes
/// through another router of its kind, made then.
final class LaneLinks: Sequence {
    /// Every router made, in order; the loop watches each as ``open(_:)`` makes it.
    private var routers: [LaneRouter] = []
    private let makeRouter: (_ security: SecuritySettings?) throws -> LaneRouter
    private let security: SecuritySettings?
    private var ordered: [LaneLink] = []
    private var byLane: [String: LaneLink] = [:]
    private var byRoutingId: [[UInt8]: LaneLink] = [:]
    private var byEndpoint: [EndpointKey: LaneLink] = [:]
    /// The number in the next routing id: each connection ever made gets a new one.
    private var nextRoutingNumber: UInt64 = 1

    private struct EndpointKey: Hashable {
        let router: ObjectIdentifier
        let endpoint: String
    }

    /// Makes no router yet: the first link of each kind makes its router.
    init(context: Context, configuration: BridgeConfiguration) {
        security = configuration.security
        makeRouter = { security in
            try LaneRouter(
                context: context, security: security, heartbeatIntervalMs: configuration.heartbeatIntervalMs,
                heartbeatTimeoutMs: configuration.heartbeatTimeoutMs)
        }
    }

    /// How many links there are.
    var count: Int { ordered.count }

    /// The link of `lane`, if it has one.
    subscript(lane: String) -> LaneLink? { byLane[lane] }

    /// The link whose current or previous connection is named `routingId`.
    func link(routingId: [UInt8]) -> LaneLink? { byRoutingId[routingId] }

    /// The link that connects `router` to `endpoint`.
    func link(on router: LaneRouter, endpoint: String) -> LaneLink? {
        byEndpoint[EndpointKey(router: ObjectIdentifier(router), endpoint: endpoint)]
    }

    /// Links `lane` through a router of its kind (CURVE when it pins its relay's key and the bridge has keys)
    /// that has no link to its endpoint, and counts it among the links, after the others. Returns the link,
    /// and the router when it was made for it (the caller watches it).
    func open(_ lane: LaneConfiguration) throws -> (link: LaneLink, newRouter: LaneRouter?) {
        let kind = lane.relayPublicKey != nil ? security : nil
        var newRouter: LaneRouter?
        let router: LaneRouter
        if let free = routers.first(where: {
            $0.isCurve == (kind != nil) && self.link(on: $0, endpoint: lane.endpoint) == nil
        }) {
            router = free
        } else {
            router = try makeRouter(kind)
            routers.append(router)
            newRouter = router
        }
        let link = try LaneLink(router: router, lane: lane, routingId: takeRoutingId())
        ordered.append(link)
        byLane[link.lane] = link
        byRoutingId[link.routingId] = link
        byEndpoint[EndpointKey(router: ObjectIdentifier(router), endpoint: link.endpoint)] = link
        return (link, newRouter)
    }

    /// Makes `link`'s connection anew under a new routing id; the one before the last no longer names it.
    func remake(_ link: LaneLink) throws {
        if let retired = link.previousRoutingId { byRoutingId[retired] = nil }
        let newId = takeRoutingId()
        byRoutingId[newId] = link
        try link.remake(routingId: newId)
    }

    /// Closes the link of `lane` and takes it out of the links.
    func close(lane: String) {
        guard let link = byLane.removeValue(forKey: lane) else { return }
        link.close()
        ordered.removeAll { $0 === link }
        byRoutingId[link.routingId] = nil
        if let previous = link.previousRoutingId { byRoutingId[previous] = nil }
        byEndpoint[EndpointKey(router: ObjectIdentifier(link.router), endpoint: link.endpoint)] = nil
    }

    /// Closes the routers, and with them every link.
    func closeAll() {
        for router in routers { router.close() }
    }

    func makeIterator() -> IndexingIterator<[LaneLink]> { ordered.makeIterator() }

    /// A routing id never used before by this loop (libzmq keeps ids that start with a zero byte for its
    /// own).
    private func takeRoutingId() -> [UInt8] {
        defer { nextRoutingNumber += 1 }
        return Array("r\(nextRoutingNumber)".utf8)
    }
}
