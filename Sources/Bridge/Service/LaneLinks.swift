import ZeroMQ

/// Every lane's link the loop owns, and the routers they go through: links in the order the lanes were
/// opened (ticks walk them in it), by lane (a send finds its link at once), by routing id (what a router
/// reads says its lane) and by router and endpoint (what a router's monitor reports says its lane; lane
/// endpoints are unique, BridgeConfiguration refuses two lanes on one).
final class LaneLinks: Sequence {
    /// The router of the lanes that do not pin their relay's key.
    let plain: LaneRouter
    /// The router of the lanes that pin their relay's key (CURVE); only with the bridge's own keys.
    let curve: LaneRouter?
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

    /// Makes the routers; no lane is linked yet.
    init(context: Context, configuration: BridgeConfiguration) throws {
        let make = { (security: SecuritySettings?) in
            try LaneRouter(
                context: context, security: security, heartbeatIntervalMs: configuration.heartbeatIntervalMs,
                heartbeatTimeoutMs: configuration.heartbeatTimeoutMs)
        }
        plain = try make(nil)
        do {
            curve = try configuration.security.map(make)
        } catch {
            plain.close()
            throw error
        }
    }

    /// The routers, each watched once by the loop.
    var routers: [LaneRouter] { [plain] + (curve.map { [$0] } ?? []) }

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

    /// Links `lane` through its router (the CURVE one when it pins its relay's key and the bridge has
    /// keys) and counts it among the links, after the others.
    @discardableResult
    func open(_ lane: LaneConfiguration) throws -> LaneLink {
        let router = lane.relayPublicKey != nil ? curve ?? plain : plain
        let link = try LaneLink(router: router, lane: lane, routingId: takeRoutingId())
        ordered.append(link)
        byLane[link.lane] = link
        byRoutingId[link.routingId] = link
        byEndpoint[EndpointKey(router: ObjectIdentifier(router), endpoint: link.endpoint)] = link
        return link
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
