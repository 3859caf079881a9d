#if os(Linux)
    import Glibc
    import Testing
    import ZeroMQ

    /// Waiting by ready sockets (``ReadyPoller``): only the readable sockets come back, and no message is
    /// left unread because libzmq's signal was consumed before the wait.
    @Suite("Ready poller")
    struct ReadyPollerTests {
        /// Long enough for a message on loopback to arrive on a busy machine; a wait that should find
        /// nothing is given this long to prove it.
        static let quietMs = 200

        @Test("a socket a peer sent to is returned, and nothing once it is drained", arguments: Transport.allCases)
        func readyAfterSend(_ transport: Transport) throws {
            try withContext { context in
                let (pull, push) = try pipe(context, transport)
                let poller = try ReadyPoller()
                try poller.register(pull)
                #expect(poller.count == 1)
                #expect(try poller.wait(timeoutMilliseconds: 0).isEmpty)

                try push.send(["wake"])
                #expect(ids(try poller.wait(timeoutMilliseconds: Int(patience))) == ids([pull]))
                #expect(text(try pull.receive(wait: false)) == ["wake"])
                #expect(try pull.receive(wait: false) == nil)
                #expect(try poller.wait(timeoutMilliseconds: Self.quietMs).isEmpty)

                // Drained to the end, the socket is signalled again by the next message.
                try push.send(["again"])
                #expect(ids(try poller.wait(timeoutMilliseconds: Int(patience))) == ids([pull]))
                #expect(text(try pull.receive(wait: false)) == ["again"])
            }
        }

        @Test("a wait with nothing ready returns empty after its timeout")
        func timeout() throws {
            try withContext { context in
                let pull = try makeSocket(context, .pull)
                _ = try bindFresh(pull, .tcp)
                let poller = try ReadyPoller()
                try poller.register(pull)
                _ = try poller.wait(timeoutMilliseconds: 0)
                var ready: [Socket] = [pull]
                let elapsed = try ContinuousClock().measure { ready = try poller.wait(timeoutMilliseconds: 50) }
                #expect(ready.isEmpty)
                #expect(elapsed >= .milliseconds(45), "returned after \(elapsed)")
                #expect(elapsed < .seconds(1), "returned after \(elapsed)")
            }
        }

        @Test("a socket read only in part is returned again by the next wait")
        func partialDrain() throws {
            try withContext { context in
                // Over inproc, each send is in the queue when it returns: five are waiting before the wait.
                let (pull, push) = try pipe(context, .inproc)
                let poller = try ReadyPoller()
                try poller.register(pull)
                for number in 1...5 { try push.send(["\(number)"]) }

                #expect(ids(try poller.wait(timeoutMilliseconds: Int(patience))) == ids([pull]))
                #expect(text(try pull.receive(wait: false)) == ["1"])
                #expect(text(try pull.receive(wait: false)) == ["2"])
                // No new signal comes for the three left: only asking the socket again finds them.
                #expect(ids(try poller.wait(timeoutMilliseconds: Self.quietMs)) == ids([pull]))
                for number in 3...5 { #expect(text(try pull.receive(wait: false)) == ["\(number)"]) }
                #expect(try pull.receive(wait: false) == nil)
                #expect(try poller.wait(timeoutMilliseconds: Self.quietMs).isEmpty)
            }
        }

        @Test("a message that came while the loop was sending is found once the socket is named to check again")
        func peerSentWhileBusySending() throws {
            try withContext { context in
                let loopSide = try makeSocket(context, .dealer)
                let peer = try makeSocket(context, .dealer)
                try peer.connect(try bindFresh(loopSide, .tcp))
                let poller = try ReadyPoller()
                try poller.register(loopSide)
                #expect(try poller.wait(timeoutMilliseconds: 0).isEmpty)

                try peer.send(["callback"])
                // The loop is busy with the socket (here: asking it, as a send may do), which consumes the
                // signal of the callback's arrival; then it sends.
                try waitUntil { try loopSide.canReceive() }
                #expect(try loopSide.send(["url"], wait: false))
                poller.checkAgain(loopSide)

                #expect(ids(try poller.wait(timeoutMilliseconds: Self.quietMs)) == ids([loopSide]))
                #expect(text(try loopSide.receive(wait: false)) == ["callback"])
                #expect(text(try peer.receive()) == ["url"])
            }
        }

        @Test("a socket unregistered and closed is never returned; the others and new ones still are")
        func unregisteredAndClosed() throws {
            try withContext { context in
                let (gone, toGone) = try pipe(context, .inproc)
                let (kept, toKept) = try pipe(context, .inproc)
                let poller = try ReadyPoller()
                try poller.register(gone)
                try poller.register(kept)
                try toGone.send(["unread"])
                try waitUntil { try gone.canReceive() }

                poller.unregister(gone)
                gone.close()
                poller.unregister(gone)  // twice: harmless
                #expect(poller.count == 1)
                #expect(!poller.contains(gone))
                #expect(try poller.wait(timeoutMilliseconds: Self.quietMs).isEmpty)

                try toKept.send(["read"])
                #expect(ids(try poller.wait(timeoutMilliseconds: Int(patience))) == ids([kept]))
                #expect(text(try kept.receive(wait: false)) == ["read"])

                // A socket made after the close (it may get the closed one's descriptor number) is watched.
                let (fresh, toFresh) = try pipe(context, .inproc)
                try poller.register(fresh)
                try toFresh.send(["new"])
                #expect(ids(try poller.wait(timeoutMilliseconds: Int(patience))) == ids([fresh]))
                #expect(text(try fresh.receive(wait: false)) == ["new"])
            }
        }

        @Test("among 1,000 idle sockets, the one that is ready is returned alone")
        func thousandIdle() throws {
            try withContext { context in
                var idle: [Socket] = []
                defer { for socket in idle { socket.close() } }
                let poller = try ReadyPoller()
                var endpoints: [String] = []
                for _ in 0..<1000 {
                    let socket = try Socket(context, .pull)
                    endpoints.append(try bindFresh(socket, .inproc))
                    try poller.register(socket)
                    idle.append(socket)
                }
                #expect(poller.count == 1000)
                #expect(try poller.wait(timeoutMilliseconds: 0).isEmpty)

                let push = try makeSocket(context, .push)
                try push.connect(endpoints[617])
                try push.send(["only me"])
                #expect(ids(try poller.wait(timeoutMilliseconds: Int(patience))) == ids([idle[617]]))
                #expect(text(try idle[617].receive(wait: false)) == ["only me"])
                #expect(try poller.wait(timeoutMilliseconds: 0).isEmpty)
            }
        }

        @Test("a closed poller refuses to wait")
        func closedPoller() throws {
            let poller = try ReadyPoller()
            poller.close()
            poller.close()
            #expect(throws: ZMQError.self) { try poller.wait(timeoutMilliseconds: 0) }
        }

        /// A PULL socket and a PUSH socket connected to it.
        private func pipe(_ context: Context, _ transport: Transport) throws -> (pull: Socket, push: Socket) {
            let pull = try makeSocket(context, .pull)
            let push = try makeSocket(context, .push)
            try push.connect(try bindFresh(pull, transport))
            return (pull, push)
        }

        /// The identities of `sockets`, to compare.
        private func ids(_ sockets: [Socket]) -> [ObjectIdentifier] { sockets.map(ObjectIdentifier.init) }

        /// Asks `condition` until it holds, failing the test after ``patience``.
        private func waitUntil(
            sourceLocation: SourceLocation = #_sourceLocation, _ condition: () throws -> Bool
        ) throws {
            let deadline = ContinuousClock.now + .milliseconds(Int(patience))
            while try !condition() {
                guard ContinuousClock.now < deadline else {
                    Issue.record("the condition did not hold within \(patience) ms", sourceLocation: sourceLocation)
                    return
                }
                sched_yield()
            }
        }
    }
#endif
