import LoopbackPorts
import Testing
import ZeroMQ

/// Waiting with a timeout, and calls that must not wait at all.
@Suite("Polling and non-blocking calls")
struct PollingTests {
    @Test("a poll with a 50 ms timeout returns empty after about 50 ms")
    func pollTimeout() throws {
        try withContext { context in
            let pull = try makeSocket(context, .pull)
            _ = try bindFresh(pull, .tcp)
            let poller = Poller()
            let index = poller.add(pull)

            var ready = -1
            let elapsed = try ContinuousClock().measure { ready = try poller.poll(timeoutMilliseconds: 50) }

            #expect(ready == 0)
            #expect(poller.ready(index).isEmpty)
            #expect(poller.readableIndices.isEmpty)
            // A behaviour check, not a benchmark: it waited, and it did not wait for ever.
            #expect(elapsed >= .milliseconds(45), "returned after \(elapsed)")
            #expect(elapsed < .seconds(1), "returned after \(elapsed)")
        }
    }

    @Test("a poll reports which socket became readable, and writable when asked")
    func pollReportsReadySocket() throws {
        try withContext { context in
            let quiet = try makeSocket(context, .pull)
            let busy = try makeSocket(context, .pull)
            _ = try bindFresh(quiet, .inproc)
            let push = try makeSocket(context, .push)
            try push.connect(try bindFresh(busy, .inproc))
            let poller = Poller()
            poller.add(quiet)
            let busyIndex = poller.add(busy)
            #expect(poller.count == 2)

            try push.send(["wake"])
            #expect(try poller.poll(timeoutMilliseconds: Int(patience)) == 1)
            #expect(poller.readableIndices == [busyIndex])
            #expect(poller.ready(busyIndex) == .readable)
            #expect(try busy.canReceive())
            #expect(text(try busy.receive(wait: false)) == ["wake"])
            #expect(try !busy.canReceive())

            // The same poller, now also asked about the PUSH socket becoming writable.
            let pushIndex = poller.add(push, events: [.readable, .writable])
            #expect(try poller.poll(timeoutMilliseconds: Int(patience)) == 1)
            #expect(poller.ready(pushIndex) == .writable)
            #expect(poller.readableIndices.isEmpty)

            poller.setEvents(.readable, at: pushIndex)
            poller.remove(at: 0)
            #expect(poller.count == 2)
            #expect(try poller.poll(timeoutMilliseconds: 0) == 0)
        }
    }

    @Test("a non-blocking receive returns nil when nothing is queued", arguments: Transport.allCases)
    func nonBlockingReceive(_ transport: Transport) throws {
        try withContext { context in
            let pull = try Socket(context, .pull)  // no receive timeout: wait:false alone must not block
            let push = try makeSocket(context, .push)
            try push.connect(try bindFresh(pull, transport))

            #expect(try pull.receive(wait: false) == nil)
            #expect(try pull.receiveFrame(wait: false) == nil)

            try push.send(["now there is one"])
            let poller = Poller()
            poller.add(pull)
            #expect(try poller.poll(timeoutMilliseconds: Int(patience)) == 1)
            #expect(text(try pull.receive(wait: false)) == ["now there is one"])
            #expect(try pull.receive(wait: false) == nil)
        }
    }

    @Test("a receive timeout returns nil after about that long")
    func receiveTimeout() throws {
        try withContext { context in
            let pull = try Socket(context, .pull)
            try pull.setReceiveTimeout(50)
            _ = try bindFresh(pull, .inproc)
            var received: [[UInt8]]? = [[]]
            let elapsed = try ContinuousClock().measure { received = try pull.receive() }
            #expect(received == nil)
            #expect(elapsed >= .milliseconds(45), "returned after \(elapsed)")
            #expect(elapsed < .seconds(1), "returned after \(elapsed)")
        }
    }

    @Test("send without waiting on an immediate DEALER with no peer returns false")
    func sendWithoutPeer() throws {
        try withContext { context in
            let deadPort = try LoopbackPort(listening: false)
            defer { deadPort.release() }
            let nowhere = deadPort.endpoint

            let immediate = try Socket(context, .dealer)
            try immediate.setImmediate(true)
            try immediate.connect(nowhere)
            #expect(try immediate.send(["lost"], wait: false) == false)
            #expect(try !immediate.canSend())

            // The same send on a DEALER without the option is queued for the connection to come.
            let queued = try Socket(context, .dealer)
            try queued.connect(nowhere)
            #expect(try queued.send(["kept"], wait: false) == true)

            // And with nothing to connect to at all, a DEALER cannot take a message either.
            let unconnected = try Socket(context, .dealer)
            #expect(try unconnected.send(["nobody"], wait: false) == false)
        }
    }

    @Test("a blocking send gives up after the send timeout and returns false")
    func sendTimeout() throws {
        try withContext { context in
            let dealer = try Socket(context, .dealer)
            try dealer.setSendTimeout(50)
            var sent = true
            let elapsed = try ContinuousClock().measure { sent = try dealer.send(["nobody"]) }
            #expect(sent == false)
            #expect(elapsed >= .milliseconds(45), "returned after \(elapsed)")
            #expect(elapsed < .seconds(1), "returned after \(elapsed)")
        }
    }
}
