import Foundation
import Testing
import ZeroMQ

/// Z85 text and CURVE key pairs.
@Suite("Z85 and CURVE keys")
struct Z85Tests {
    @Test("the RFC 32 test vector encodes and decodes")
    func rfcVector() {
        let bytes: [UInt8] = [0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B]
        #expect(Z85.encode(bytes) == "HelloWorld")
        #expect(Z85.decode("HelloWorld") == bytes)
    }

    @Test("bytes survive a round trip", arguments: [0, 4, 8, 32, 64, 400])
    func roundTrip(count: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let text = try #require(Z85.encode(bytes))
        #expect(text.utf8.count == count * 5 / 4)
        #expect(Z85.decode(text) == bytes)
    }

    @Test("the extremes of a 4-byte group round trip")
    func extremes() {
        #expect(Z85.encode([0, 0, 0, 0]) == "00000")
        #expect(Z85.decode("00000") == [0, 0, 0, 0])
        #expect(Z85.encode([0xFF, 0xFF, 0xFF, 0xFF]) == "%nSc0")
        #expect(Z85.decode("%nSc0") == [0xFF, 0xFF, 0xFF, 0xFF])
    }

    @Test("encoding refuses a length that is not a multiple of 4", arguments: [1, 2, 3, 5, 31])
    func encodeBadLength(count: Int) {
        #expect(Z85.encode([UInt8](repeating: 7, count: count)) == nil)
    }

    @Test(
        "decoding refuses text that is not Z85",
        arguments: [
            "Hello",  // fine, as a control: see below
            "Hell",  // not a multiple of 5
            "HelloWorl",
            "Hello World",  // a space
            "Hello\"orld",  // printable, but not in the Z85 alphabet
            "Hel~oWorld",
            "Hel_oWorld",
            "Hel\\oWorld",
            "Héllo",  // not ASCII
            "#####",  // more than 2^32 - 1 in one group
            "%nSc1",  // 2^32 exactly
        ]
    )
    func decodeBadInput(text: String) {
        if text == "Hello" {
            #expect(Z85.decode(text) != nil)
        } else {
            #expect(Z85.decode(text) == nil, "decoded \(text.debugDescription)")
        }
    }

    @Test("generated key pairs are 40 characters of Z85 and match")
    func generateKeyPair() throws {
        try #require(CurveKeyPair.isAvailable)
        let pair = try CurveKeyPair.generate()
        let other = try CurveKeyPair.generate()
        #expect(pair != other)
        #expect(pair.publicKey.utf8.count == 40)
        #expect(pair.secretKey.utf8.count == 40)
        #expect(Z85.decode(pair.publicKey)?.count == 32)
        #expect(Z85.decode(pair.secretKey)?.count == 32)
        #expect(try CurveKeyPair.publicKey(forSecretKey: pair.secretKey) == pair.publicKey)
    }

    @Test("deriving a public key refuses a secret that is not a 40-character Z85 key")
    func publicKeyFromBadSecret() throws {
        try #require(CurveKeyPair.isAvailable)
        let secret = try CurveKeyPair.generate().secretKey
        for bad in ["", "HelloWorld", secret + "HelloWorld", String(secret.dropLast()) + "~"] {
            let error = #expect(throws: ZMQError.self) { try CurveKeyPair.publicKey(forSecretKey: bad) }
            #expect(error?.code == EINVAL)
        }
    }
}
