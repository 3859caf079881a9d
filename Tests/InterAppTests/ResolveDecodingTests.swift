import Testing

@testable import InterApp

/// `resolve` (v1.1): closing an `unknown` command by hand; decoded like the other bridge queries.
@Suite("resolve: decoding")
struct ResolveDecodingTests {
    @Test("ref, outcome success or failure, an optional note")
    func valid() throws {
        let command = try CommandDecoder().decode(
            Array(
                #"{"id":"r-1","action":"resolve","ref":"pos-7","outcome":"failure","note":"declined in back office"}"#
                    .utf8))
        #expect(command.body == .resolve(ref: "pos-7", outcome: .failure, note: "declined in back office"))
        #expect(command.isQuery && command.lane == nil)
        let bare = try CommandDecoder().decode(
            Array(#"{"id":"r-2","action":"resolve","ref":"p","outcome":"success"}"#.utf8))
        #expect(bare.body == .resolve(ref: "p", outcome: .success, note: nil))
    }

    @Test(
        "every other shape is rejected with the key and the rule",
        arguments: [
            (#"{"id":"r","action":"resolve","outcome":"success"}"#, RejectionCode.missingField, "ref is required"),
            (#"{"id":"r","action":"resolve","ref":"p"}"#, .missingField, "outcome is required"),
            (#"{"id":"r","action":"resolve","ref":"p","outcome":"aborted"}"#, .invalidValue, "outcome must be"),
            (#"{"id":"r","action":"resolve","ref":"p","outcome":"unknown"}"#, .invalidValue, "outcome must be"),
            (#"{"id":"r","action":"resolve","ref":"a b","outcome":"success"}"#, .invalidValue, "ref must be"),
            (#"{"id":"r","action":"resolve","ref":"p","outcome":"success","note":7}"#, .invalidValue, "note must be"),
            (#"{"id":"r","action":"resolve","ref":"p","outcome":"success","note":""}"#, .invalidValue, "note must be"),
            (#"{"id":"r","action":"resolve","ref":"p","outcome":"success","lane":"l"}"#, .unknownField, "lane"),
            (#"{"id":"r","action":"resolve","ref":"p","outcome":"success","nots":"x"}"#, .unknownField, "note"),
            (#"{"id":"r","action":"status","ref":"p","outcome":"success"}"#, .unknownField, "outcome"),
        ])
    func invalid(json: String, code: RejectionCode, mention: String) {
        do {
            _ = try CommandDecoder().decode(Array(json.utf8))
            Issue.record("accepted: \(json)")
        } catch {
            #expect(error.code == code, "\(error.message)")
            #expect(error.message.contains(mention), "\(error.message)")
        }
    }

    @Test("a note longer than 1000 bytes is rejected; one of 1000 is kept")
    func noteLength() throws {
        let long = String(repeating: "é", count: 501)  // 1002 bytes
        #expect(throws: Rejection.self) {
            try CommandDecoder().decode(
                Array(#"{"id":"r","action":"resolve","ref":"p","outcome":"success","note":"\#(long)"}"#.utf8))
        }
        let fits = String(repeating: "x", count: 1000)
        let command = try CommandDecoder().decode(
            Array(#"{"id":"r","action":"resolve","ref":"p","outcome":"success","note":"\#(fits)"}"#.utf8))
        #expect(command.body == .resolve(ref: "p", outcome: .success, note: fits))
    }

    @Test("a resolved reply carries resolved after earlier")
    func replyKey() {
        var reply = Reply(id: "p", lane: "l", action: "sale", outcome: .success)
        reply.earlier = ["outcome": "unknown"]
        reply.resolved = ["by": .null, "at": "2026-11-25T10:00:00.000+00:00", "note": "seen"]
        #expect(Array(reply.json.keys.suffix(3)) == ["late", "earlier", "resolved"])
    }
}
