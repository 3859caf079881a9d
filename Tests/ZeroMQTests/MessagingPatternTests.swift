import Testing
import ZeroMQ

/// A round trip through each socket pattern the bridge may use, over inproc and TCP loopback.
@Suite("Messaging patterns")
struct MessagingPatternTests {
    @Test("REQ/REP round trip", arguments: Transport.allCases)
    func requestReply(_ transport: Transport) throws {
        try withContext { context in
            let rep = try makeSocket(context, .rep)
            let req = try makeSocket(context, .req)
            try req.connect(try bindFresh(rep, transport))

            try req.send(["ping"])
            #expect(text(try rep.receive()) == ["ping"])
            try rep.send(["pong"])
            #expect(text(try req.receive()) == ["pong"])

            // A second exchange proves the REQ/REP state machine went back to the start.
            try req.send(["ping 2"])
            #expect(text(try rep.receive()) == ["ping 2"])
            try rep.send(["pong 2"])
            #expect(text(try req.receive()) == ["pong 2"])
        }
    }

    @Test("DEALER/ROUTER round trip addressed by routing id", arguments: Transport.allCases)
    func dealerRouter(_ transport: Transport) throws {
        try withContext { context in
            let router = try makeSocket(context, .router)
            let endpoint = try bindFresh(router, transport)
            let alice = try makeSocket(context, .dealer)
            let bob = try makeSocket(context, .dealer)
            try alice.setRoutingId(Array("alice".utf8))
            try bob.setRoutingId(Array("bob".utf8))
            #expect(try alice.routingId() == Array("alice".utf8))
            try alice.connect(endpoint)
            try bob.connect(endpoint)

            try alice.send(["from alice"])
            #expect(text(try router.receive()) == ["alice", "from alice"])
            try bob.send(["from bob"])
            #expect(text(try router.receive()) == ["bob", "from bob"])

            // Replies go to the peer named in the first frame, and only to it.
            try router.send(["bob", "for bob"])
            try router.send(["alice", "for alice"])
            #expect(text(try alice.receive()) == ["for alice"])
            #expect(text(try bob.receive()) == ["for bob"])
            #expect(try alice.receive(wait: false) == nil)
            #expect(try bob.receive(wait: false) == nil)
        }
    }

    @Test("PUB/SUB delivers matching topics and filters the rest", arguments: Transport.allCases)
    func publishSubscribe(_ transport: Transport) throws {
        try withContext { context in
            let pub = try makeSocket(context, .pub)
            let sub = try makeSocket(context, .sub)
            try sub.subscribe("news")
            try sub.connect(try bindFresh(pub, transport))

            // The subscription reaches the publisher some time after connect: until then the publisher drops
            // everything. Publish a non-matching and a matching message until the first one arrives.
            let poller = Poller()
            poller.add(sub)
            var first: [String]?
            for _ in 0..<200 where first == nil {
                try pub.send(["weather", "rain"])
                try pub.send(["news", "headline"])
                if try poller.poll(timeoutMilliseconds: 10) > 0 {
                    first = text(try sub.receive())
                }
            }
            // Messages from one publisher arrive in order, so a leaked "weather" would have come first.
            #expect(first == ["news", "headline"])

            try pub.send(["weather", "sun"])
            try pub.send(["newsletter", "prefix match"])
            try pub.send(["end"])
            try pub.send(["news", "last"])
            var rest: [[String]] = []
            while let message = text(try sub.receive()), rest.count < 1000 {
                rest.append(message)
                if message == ["news", "last"] { break }
            }
            // Catch-up copies of the retry loop may come first; nothing that does not start with "news" may.
            #expect(rest.allSatisfy { $0.first?.hasPrefix("news") == true })
            #expect(rest.suffix(2) == [["newsletter", "prefix match"], ["news", "last"]])
        }
    }

    @Test("PUSH/PULL round trip", arguments: Transport.allCases)
    func pushPull(_ transport: Transport) throws {
        try withContext { context in
            let pull = try makeSocket(context, .pull)
            let push = try makeSocket(context, .push)
            try push.connect(try bindFresh(pull, transport))

            for index in 0..<10 {
                try push.send(["job \(index)"])
            }
            for index in 0..<10 {
                #expect(text(try pull.receive()) == ["job \(index)"])
            }
            #expect(try pull.receive(wait: false) == nil)
        }
    }

    @Test("PAIR round trip both ways", arguments: Transport.allCases)
    func pair(_ transport: Transport) throws {
        try withContext { context in
            let left = try makeSocket(context, .pair)
            let right = try makeSocket(context, .pair)
            try right.connect(try bindFresh(left, transport))

            try right.send(["to left"])
            #expect(text(try left.receive()) == ["to left"])
            try left.send(["to right"])
            #expect(text(try right.receive()) == ["to right"])
        }
    }
}
