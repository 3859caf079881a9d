import Testing
import ZeroMQ

/// The ZAP handler spoken to directly, as libzmq speaks to it (ZeroMQ RFC 27).
@Suite("ZAP handler protocol")
struct ZAPProtocolTests {
    private func request(_ id: String, mechanism: String, key: [UInt8]?) -> [[UInt8]] {
        let head = ["1.0", id, "vivabridge-test", "127.0.0.1", "", mechanism].map { Array($0.utf8) }
        return key.map { head + [$0] } ?? head
    }

    @Test("allowed CURVE keys get 200, everything else 400, and a malformed request does not stop it")
    func replies() throws {
        let allowed = try CurveKeyPair.generate()
        let allowedKey = try #require(Z85.decode(allowed.publicKey))
        let otherKey = try #require(Z85.decode(try CurveKeyPair.generate().publicKey))
        try withContext { context in
            let zap = try ZAPHandler(context: context, allowedPublicKeys: [allowed.publicKey, "not a key"])
            defer { zap.stop() }
            let client = try makeSocket(context, .req)
            try client.connect("inproc://zeromq.zap.01")

            try client.send(request("1", mechanism: "CURVE", key: allowedKey))
            #expect(text(try client.receive()) == ["1.0", "1", "200", "OK", allowed.publicKey, ""])
            #expect(zap.refusedCount == 0)

            try client.send(request("2", mechanism: "CURVE", key: otherKey))
            #expect(text(try client.receive())?.prefix(3) == ["1.0", "2", "400"])
            try client.send(request("3", mechanism: "NULL", key: nil))
            #expect(text(try client.receive())?.prefix(3) == ["1.0", "3", "400"])
            try client.send(["1.0"])
            #expect(text(try client.receive())?.prefix(3) == ["1.0", "", "400"])
            #expect(zap.refusedCount == 3)

            // Still answering.
            try client.send(request("4", mechanism: "CURVE", key: allowedKey))
            #expect(text(try client.receive())?.prefix(3) == ["1.0", "4", "200"])
        }
    }

    @Test("a handler dropped without stop() lets its context terminate")
    func droppedHandler() throws {
        try withContext { context in
            _ = try ZAPHandler(context: context, allowedPublicKeys: [])
        }
    }
}
