import Foundation
import Testing
import ZeroMQ

/// ROUTER behaviour the bridge relies on to notice a peer that is gone.
@Suite("ROUTER addressing")
struct RouterTests {
    @Test("router-mandatory fails with EHOSTUNREACH towards an unknown peer", arguments: Transport.allCases)
    func mandatoryUnknownPeer(_ transport: Transport) throws {
        try withContext { context in
            let router = try makeSocket(context, .router)
            try router.setRouterMandatory(true)
            let endpoint = try bindFresh(router, transport)
            let dealer = try makeSocket(context, .dealer)
            try dealer.setRoutingId(Array("known".utf8))
            try dealer.connect(endpoint)

            // Once the router has heard from "known", it can route to it...
            try dealer.send(["hello"])
            #expect(text(try router.receive()) == ["known", "hello"])
            #expect(try router.send(["known", "reply"]))
            #expect(text(try dealer.receive()) == ["reply"])

            // ...but a send to a peer it never met fails loudly, blocking or not.
            for wait in [true, false] {
                let error = #expect(throws: ZMQError.self) {
                    try router.send(["stranger", "lost"], wait: wait)
                }
                #expect(error?.hostUnreachable == true)
                #expect(error?.code == EHOSTUNREACH)
            }
        }
    }

    @Test("without router-mandatory a message to an unknown peer is dropped silently")
    func nonMandatoryDrops() throws {
        try withContext { context in
            let router = try makeSocket(context, .router)
            _ = try bindFresh(router, .inproc)
            #expect(try router.send(["stranger", "lost"]))
        }
    }

    @Test("a ROUTER names the peer of its own connect with the connect routing id")
    func connectRoutingId() throws {
        try withContext { context in
            let server = try makeSocket(context, .router)
            try server.setRoutingId(Array("server".utf8))
            let endpoint = try bindFresh(server, .tcp)
            let client = try makeSocket(context, .router)
            try client.setRouterMandatory(true)
            try client.setConnectRoutingId(Array("upstream".utf8))
            let events = try EventWatcher(client)
            try client.connect(endpoint)

            // Once the connection is up, the client addresses the server by the name it chose for it.
            #expect(try events.next(.handshakeSucceeded) != nil, "saw \(events.seenKinds)")
            #expect(try client.send(["upstream", "hi"]))
            let received = try #require(try server.receive())
            #expect(received.count == 2)
            #expect(received.last == Array("hi".utf8))
            // The server's own routing id is not how the client knows it.
            #expect(throws: ZMQError(code: EHOSTUNREACH, operation: "send")) { try client.send(["server", "x"]) }
        }
    }

    @Test("a routed send puts the routing id first; a routed receive gives it apart from the frames")
    func routedSendAndReceive() throws {
        try withContext { context in
            let (relay, bridge) = try Self.linked(context, immediate: false)
            #expect(try bridge.send(routedTo: Array("r1".utf8), [Array("open".utf8), Array("x".utf8)]))
            #expect(text(try relay.receive()) == ["open", "x"])
            try relay.send(["opened", "x"])
            let message = try #require(try bridge.receiveRouted())
            #expect(String(decoding: message.routingId, as: UTF8.self) == "r1")
            #expect(message.frames.map { String(decoding: $0, as: UTF8.self) } == ["opened", "x"])
            #expect(try bridge.receiveRouted(wait: false) == nil)
            #expect(throws: ZMQError(code: EHOSTUNREACH, operation: "send")) {
                try bridge.send(routedTo: Array("r2".utf8), [Array("open".utf8)], wait: false)
            }
        }
    }

    /// The lanes' routers rely on this (LaneRouter): with `ZMQ_IMMEDIATE`, libzmq 4.3 names the peer by
    /// its own routing id and ignores the connect routing id, so they cannot have it.
    @Test("with immediate on, a ROUTER's connect routing id does not name the peer")
    func immediateIgnoresConnectRoutingId() throws {
        try withContext { context in
            let (relay, bridge) = try Self.linked(context, immediate: true)
            try relay.send(["hello"])
            let message = try #require(try bridge.receiveRouted())
            #expect(message.routingId != Array("r1".utf8))
        }
    }

    /// A DEALER bound as a relay, and a ROUTER with router-mandatory that connected to it naming the
    /// connection "r1" (with `immediate` as given); returns once the handshake succeeded.
    private static func linked(_ context: Context, immediate: Bool) throws -> (relay: Socket, bridge: Socket) {
        let relay = try makeSocket(context, .dealer)
        let endpoint = try bindFresh(relay, .tcp)
        let bridge = try makeSocket(context, .router)
        try bridge.setRouterMandatory(true)
        try bridge.setImmediate(immediate)
        try bridge.setConnectRoutingId(Array("r1".utf8))
        let events = try EventWatcher(bridge)
        try bridge.connect(endpoint)
        #expect(try events.next(.handshakeSucceeded) != nil, "saw \(events.seenKinds)")
        return (relay, bridge)
    }
}
