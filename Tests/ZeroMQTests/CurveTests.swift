import Foundation
import Testing
import ZeroMQ

/// CURVE encryption with a ZAP allow-list: who gets through and who does not.
@Suite("CURVE with a ZAP allow-list", .enabled(if: CurveKeyPair.isAvailable))
struct CurveTests {
    /// A CURVE server (ROUTER) bound on TCP loopback, with a ZAP handler admitting `allowed`.
    private struct Server {
        let context: Context
        let keys: CurveKeyPair
        let socket: Socket
        let events: EventWatcher
        let zap: ZAPHandler
        let endpoint: String

        init(_ context: Context, allowing allowed: Set<String>) throws {
            self.context = context
            keys = try CurveKeyPair.generate()
            zap = try ZAPHandler(context: context, allowedPublicKeys: allowed)
            socket = try makeSocket(context, .router)
            try socket.setCurveServer(true)
            try socket.setCurveSecretKey(keys.secretKey)
            try socket.setZAPDomain("vivabridge-test")
            events = try EventWatcher(socket)
            endpoint = try bindFresh(socket, .tcp)
        }

        /// A DEALER that speaks CURVE with `keys`, trusting `serverKey`, connected to this server.
        func client(_ keys: CurveKeyPair, serverKey: String) throws -> Socket {
            let client = try makeSocket(context, .dealer)
            try client.setCurvePublicKey(keys.publicKey)
            try client.setCurveSecretKey(keys.secretKey)
            try client.setCurveServerKey(serverKey)
            try client.setReconnectInterval(20)
            return client
        }
    }

    @Test("a client whose key is on the allow-list gets through, both ways")
    func allowedClient() throws {
        let clientKeys = try CurveKeyPair.generate()
        try withContext { context in
            let server = try Server(context, allowing: [clientKeys.publicKey])
            defer { server.zap.stop() }
            let client = try server.client(clientKeys, serverKey: server.keys.publicKey)
            try client.setRoutingId(Array("till-1".utf8))
            try client.connect(server.endpoint)

            try client.send(["ping"])
            #expect(text(try server.socket.receive()) == ["till-1", "ping"])
            try server.socket.send(["till-1", "pong"])
            #expect(text(try client.receive()) == ["pong"])
            #expect(server.events.seenKinds.allSatisfy { !$0.isHandshakeFailure })
            #expect(try server.events.next(.handshakeSucceeded) != nil, "saw \(server.events.seenKinds)")
            #expect(server.zap.refusedCount == 0)
        }
    }

    @Test("a client with a key not on the allow-list is refused")
    func unknownClientKey() throws {
        let allowedKeys = try CurveKeyPair.generate()
        let strangerKeys = try CurveKeyPair.generate()
        try withContext { context in
            let server = try Server(context, allowing: [allowedKeys.publicKey])
            defer { server.zap.stop() }
            let client = try server.client(strangerKeys, serverKey: server.keys.publicKey)
            let clientEvents = try EventWatcher(client)
            try client.connect(server.endpoint)
            try client.send(["let me in"])

            let refusal = try server.events.next { $0.kind.isHandshakeFailure || $0.kind == .handshakeSucceeded }
            #expect(refusal?.kind == .handshakeFailedAuth, "saw \(server.events.seenKinds)")
            #expect(refusal?.value == 400)
            let clientRefusal = try clientEvents.next { $0.kind.isHandshakeFailure || $0.kind == .handshakeSucceeded }
            #expect(clientRefusal?.kind == .handshakeFailedAuth, "saw \(clientEvents.seenKinds)")
            #expect(server.zap.refusedCount >= 1)
            #expect(try server.socket.receive(wait: false) == nil)
        }
    }

    @Test("a client that trusts the wrong server key never gets through")
    func wrongServerKey() throws {
        let clientKeys = try CurveKeyPair.generate()
        let impostorKeys = try CurveKeyPair.generate()
        try withContext { context in
            let server = try Server(context, allowing: [clientKeys.publicKey])
            defer { server.zap.stop() }
            let client = try server.client(clientKeys, serverKey: impostorKeys.publicKey)
            try client.connect(server.endpoint)
            try client.send(["let me in"])

            // The server cannot open the client's HELLO: the handshake fails before ZAP is ever asked.
            let failure = try server.events.next { $0.kind.isHandshakeFailure || $0.kind == .handshakeSucceeded }
            #expect(failure?.kind == .handshakeFailedProtocol, "saw \(server.events.seenKinds)")
            #expect(try server.socket.receive(wait: false) == nil)
            #expect(server.zap.refusedCount == 0)
        }
    }

    @Test("a client without CURVE is not let in")
    func plainClient() throws {
        try withContext { context in
            let server = try Server(context, allowing: [])
            defer { server.zap.stop() }
            let client = try makeSocket(context, .dealer)
            try client.connect(server.endpoint)
            try client.send(["let me in"])

            let failure = try server.events.next { $0.kind.isHandshakeFailure || $0.kind == .handshakeSucceeded }
            #expect(failure?.kind == .handshakeFailedProtocol, "saw \(server.events.seenKinds)")
            #expect(try server.socket.receive(wait: false) == nil)
        }
    }

    @Test("one ZAP handler per context, and stopping it twice is harmless")
    func oneHandlerPerContext() throws {
        try withContext { context in
            let handler = try ZAPHandler(context: context, allowedPublicKeys: [])
            let error = #expect(throws: ZMQError.self) { try ZAPHandler(context: context, allowedPublicKeys: []) }
            #expect(error?.code == EADDRINUSE)
            handler.stop()
            handler.stop()
        }
    }
}
