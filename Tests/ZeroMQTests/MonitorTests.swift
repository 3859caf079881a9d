import LoopbackPorts
import Testing
import ZeroMQ

/// Socket monitors: how the bridge learns that a peer came and went.
@Suite("Socket monitor")
struct MonitorTests {
    @Test("a monitor sees a peer connect and disconnect")
    func connectAndDisconnect() throws {
        try withContext { context in
            let server = try makeSocket(context, .router)
            let serverEvents = try EventWatcher(server)
            let endpoint = try bindFresh(server, .tcp)
            #expect(try serverEvents.next(.listening)?.endpoint == endpoint)

            let client = try makeSocket(context, .dealer)
            let clientEvents = try EventWatcher(client)
            try client.connect(endpoint)

            #expect(try clientEvents.next(.connected)?.endpoint == endpoint, "saw \(clientEvents.seenKinds)")
            #expect(try clientEvents.next(.handshakeSucceeded) != nil, "saw \(clientEvents.seenKinds)")
            let accepted = try serverEvents.next(.accepted)
            #expect(accepted != nil, "saw \(serverEvents.seenKinds)")
            #expect(accepted?.endpoint.hasPrefix("tcp://127.0.0.1:") == true)
            #expect(try serverEvents.next(.handshakeSucceeded) != nil, "saw \(serverEvents.seenKinds)")
            #expect(!serverEvents.seenKinds.contains(.disconnected))

            client.close()
            #expect(try serverEvents.next(.disconnected) != nil, "saw \(serverEvents.seenKinds)")
        }
    }

    @Test("a monitor reports only the events it was asked for")
    func eventFilter() throws {
        try withContext { context in
            let server = try makeSocket(context, .pull)
            let events = try EventWatcher(server, events: [.accepted, .disconnected])
            let endpoint = try bindFresh(server, .tcp)
            let client = try makeSocket(context, .push)
            try client.connect(endpoint)
            #expect(try events.next(.accepted) != nil)
            client.close()
            #expect(try events.next(.disconnected) != nil)
            // listening and handshake-succeeded were filtered out.
            #expect(events.seenKinds == [.accepted, .disconnected])
        }
    }

    @Test("a connect to nowhere is reported as delayed and retried")
    func connectRetried() throws {
        try withContext { context in
            let nowhere = try LoopbackPort(listening: false)
            defer { nowhere.release() }
            let client = try makeSocket(context, .dealer)
            try client.setReconnectInterval(10)
            let events = try EventWatcher(client)
            try client.connect(nowhere.endpoint)
            #expect(try events.next(.connectRetried) != nil, "saw \(events.seenKinds)")
            #expect(!events.seenKinds.contains(.connected))
        }
    }

    @Test("monitor frames parse into events; anything else does not")
    func parseFrames() {
        // ZMQ_EVENT_ACCEPTED (0x0020), value 7, little-endian as libzmq writes it on Linux.
        let event = MonitorEvent(frames: [[0x20, 0x00, 0x07, 0x00, 0x00, 0x00], Array("tcp://x:1".utf8)])
        #expect(event?.kind == .accepted)
        #expect(event?.value == 7)
        #expect(event?.endpoint == "tcp://x:1")
        #expect(MonitorEvent(frames: [[0x00, 0x80, 0, 0, 0, 0], []])?.kind == .other(0x8000))
        #expect(MonitorEvent(frames: [[1, 2, 3]]) == nil)
        #expect(MonitorEvent(frames: [[0x20, 0, 0, 0, 0], []]) == nil)
        #expect(MonitorEvent.Kind.handshakeFailedAuth.isHandshakeFailure)
        #expect(!MonitorEvent.Kind.handshakeSucceeded.isHandshakeFailure)
    }
}
