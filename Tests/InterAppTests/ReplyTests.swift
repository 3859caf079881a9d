import InterApp
import Testing

@Suite("Replies: one shape for the bridge, translate and clients")
struct ReplyTests {
    @Test("a rejection's reply carries every key the bridge sends, late included, in the contract's order")
    func rejection() {
        let rejection = Rejection(.unknownLane, "lane x is not configured", id: "c1", lane: "x", action: "sale")
        let text = JSONValue.object(rejection.reply).serializedString
        #expect(
            text
                == #"{"id":"c1","lane":"x","action":"sale","outcome":"rejected","error":{"code":"unknown_lane","message":"lane x is not configured"},"late":false}"#
        )
    }

    @Test("a late result keeps its earlier outcome after late; absent keys stay absent")
    func late() {
        var reply = Reply(id: "s", lane: "l", action: "sale", outcome: .success, message: "ok")
        #expect(
            JSONValue.object(reply.json).serializedString
                == #"{"id":"s","lane":"l","action":"sale","outcome":"success","message":"ok","late":false}"#)
        reply.late = true
        reply.earlier = ["outcome": .string("aborted")]
        #expect(reply.json["earlier"]?.objectValue?["outcome"]?.stringValue == "aborted")
        #expect(reply.json["late"] == .bool(true))
    }
}
