#if os(Linux)
    import Glibc
    import Testing
    import ZeroMQ

    /// Waiting by ready sockets (``ReadyPoller``): the sockets that may be readable come back (asked, or
    /// their descriptor fired), idle ones never, and no message is left unread because libzmq's signal was
    /// consumed before the wait.
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
                try expectNothingToReceive(poller.wait(timeoutMilliseconds: 0))
                // Over tcp the connection is attached when its handshake ends, which fires the descriptor
                // with no message: one message through first, so that what follows sees only messages.
                try push.send(["setup"])
                try waitUntil {
                    try poller.wait(timeoutMilliseconds: Int(patience)).contains { $0 === pull } && pull.canReceive()
                }
                #expect(text(try pull.receive(wait: false)) == ["setup"])
                #expect(try pull.receive(wait: false) == nil)
                #expect(try poller.wait(timeoutMilliseconds: Self.quietMs).isEmpty)

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
                try expectNothingToReceive(poller.wait(timeoutMilliseconds: 0))

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

        @Test("a descriptor that fires returns its socket without asking it")
        func firedNotAsked() throws {
            try withContext { context in
                let (pull, push) = try pipe(context, .inproc)
                let poller = try ReadyPoller()
                try poller.register(pull)
                #expect(try poller.wait(timeoutMilliseconds: 0).isEmpty)
                let asked = poller.asks

                try push.send(["wake"])
                #expect(ids(try poller.wait(timeoutMilliseconds: Int(patience))) == ids([pull]))
                #expect(poller.asks == asked, "the receive that follows answers as cheaply as asking")
                #expect(text(try pull.receive(wait: false)) == ["wake"])
            }
        }

        @Test("a socket named drained is not asked by the next wait, and its next message is still found")
        func drainedNotAskedAgain() throws {
            try withContext { context in
                let (pull, push) = try pipe(context, .inproc)
                let (other, toOther) = try pipe(context, .inproc)
                let poller = try ReadyPoller()
                try poller.register(pull)
                try poller.register(other)
                #expect(try poller.wait(timeoutMilliseconds: 0).isEmpty)

                try push.send(["one"])
                try toOther.send(["two"])
                var ready: [Socket] = []
                try waitUntil {
                    for socket in try poller.wait(timeoutMilliseconds: Int(patience))
                    where !ready.contains(where: { $0 === socket }) {
                        ready.append(socket)
                    }
                    return ready.count == 2
                }
                #expect(text(try pull.receive(wait: false)) == ["one"])
                #expect(try pull.receive(wait: false) == nil)
                poller.drained(pull)
                #expect(text(try other.receive(wait: false)) == ["two"])
                #expect(try other.receive(wait: false) == nil)

                // Only the socket not named drained is asked before the wait blocks.
                let asked = poller.asks
                #expect(try poller.wait(timeoutMilliseconds: Self.quietMs).isEmpty)
                #expect(poller.asks == asked + 1)

                // Its signal was spent by the empty receive, not lost: the next message fires it again.
                try push.send(["three"])
                #expect(ids(try poller.wait(timeoutMilliseconds: Int(patience))) == ids([pull]))
                #expect(text(try pull.receive(wait: false)) == ["three"])
            }
        }

        @Test("a socket named drained and then sent on is asked again when named to check again")
        func drainedThenSent() throws {
            try withContext { context in
                let loopSide = try makeSocket(context, .dealer)
                let peer = try makeSocket(context, .dealer)
                try peer.connect(try bindFresh(loopSide, .inproc))
                let poller = try ReadyPoller()
                try poller.register(loopSide)
                try expectNothingToReceive(poller.wait(timeoutMilliseconds: 0))
                #expect(try loopSide.receive(wait: false) == nil)
                poller.drained(loopSide)

                try peer.send(["callback"])
                // The signal of the callback is consumed by a call on the socket, then the loop sends.
                try waitUntil { try loopSide.canReceive() }
                #expect(try loopSide.send(["url"], wait: false))
                poller.checkAgain(loopSide)
                let asked = poller.asks
                #expect(ids(try poller.wait(timeoutMilliseconds: Self.quietMs)) == ids([loopSide]))
                #expect(poller.asks == asked + 1)
                #expect(text(try loopSide.receive(wait: false)) == ["callback"])
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

        /// Each socket of `sockets` has nothing to receive: a wait may return a socket whose descriptor
        /// fired for a change that brought no message (a connection being set up), never one left unread.
        private func expectNothingToReceive(
            _ sockets: [Socket], sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            for socket in sockets {
                #expect(try socket.receive(wait: false) == nil, sourceLocation: sourceLocation)
            }
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
