import InterApp
import Testing

/// No input crashes the callback parser: truncated, doubled, binary, huge and random.
@Suite("Callback parser robustness")
struct CallbackRobustnessTests {
    @Test("every truncation of every seed callback parses or is rejected")
    func truncations() {
        for url in [CallbackSeedTests.saleSuccess, CallbackSeedTests.saleFailed, CallbackSeedTests.androidAborted] {
            let bytes = Array(url.utf8)
            for cut in 0...bytes.count {
                _ = try? CallbackParser.parse(Array(bytes[..<cut]))
                _ = try? CallbackParser.parse(Array(bytes[cut...]))
            }
        }
    }

    @Test("doubled callbacks are ambiguous, not silently merged")
    func doubled() {
        let url = CallbackSeedTests.saleSuccess
        let doubled = url + url
        // The second URL's scheme glues onto the last value; the fields stay consistent with the first.
        let callback = try? CallbackParser.parse(doubled)
        #expect(callback?.status == "success")
        let conflicting = CallbackSeedTests.saleSuccess + "&" + CallbackSeedTests.saleFailed
        #expect(throws: CallbackParseError.self) { try CallbackParser.parse(conflicting) }
    }

    @Test("a 1 MiB callback parses without trouble")
    func huge() throws {
        let value = String(repeating: "A", count: 1 << 20)
        let callback = try CallbackParser.parse("x://r?status=success&note=\(value)")
        #expect(callback.field("note")?.utf8.count == 1 << 20)
        let manyFields = "x://r?status=success" + String(repeating: "&a=b", count: 200_000)
        #expect(try CallbackParser.parse(manyFields).fields.count == 200_001)
        let junk = [UInt8](repeating: 0xFF, count: 1 << 20)
        #expect(throws: CallbackParseError.self) { try CallbackParser.parse(junk) }
        let percents = "x://r?status=success&v=" + String(repeating: "%", count: 1 << 20)
        #expect(try CallbackParser.parse(percents).field("v")?.utf8.count == 1 << 20)
    }

    @Test("random bytes and random mutations never crash")
    func random() {
        var random = SplitMix(seed: 7)
        let alphabet =
            Array("interapp-callback://result?status=success&=%+ 0123456789ABCDEFabort(-57)".utf8)
            + [0x00, 0x0A, 0x7F, 0x80, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xFF]
        for _ in 0..<3000 {
            let count = Int.random(in: 0...120, using: &random)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &random)! }
            _ = try? CallbackParser.parse(bytes)
            _ = try? CallbackParser.parse(String(decoding: bytes, as: UTF8.self))
        }
        let seed = Array(CallbackSeedTests.saleSuccess.utf8)
        for _ in 0..<3000 {
            var bytes = seed
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if let callback = try? CallbackParser.parse(bytes) {
                _ = callback.result
                _ = callback.baseOutcome
            }
        }
    }
}
