import BridgeClient
import InterApp
import Testing

@testable import vivabridge

/// `send` and `watch` read replies as the contract gives them (TypedReply): what breaks it is said, not shown
/// as question marks.
@Suite("vivabridge send and watch: replies read through the contract")
struct SendReportContractTests {
    @Test("a reply with an outcome the contract does not know is shown as received, naming the member")
    func brokenReply() throws {
        let reply: JSONObject = ["id": "p-1", "lane": "lane-1", "action": "sale", "outcome": "approved", "late": false]
        let text = SendReport.render(reply)
        #expect(
            text.hasPrefix("a reply that does not follow the contract (outcome: a value of the contract, not approved)")
        )
        #expect(text.contains(#""outcome":"approved""#))
        #expect(SendReport.renderResolve(reply) == text)
    }

    @Test("a status answer reads its stored reply; a lanes answer its last callback")
    func statusAndLanes() throws {
        let status: JSONObject = [
            "id": "q", "action": "status", "outcome": "success", "late": false,
            "result": [
                "ref": "p-1", "state": "final", "lane": "lane-1", "action": "sale", "outcome": "success",
                "reply": ["id": "p-1", "lane": "lane-1", "action": "sale", "outcome": "success", "late": true],
            ],
        ]
        #expect(
            SendReport.render(status)
                == "status of p-1: final, sale on lane-1: success\n  its reply:\n  sale p-1 on lane-1: success (late)\n"
        )
        let state = WatchState().applying(
            snapshot: lanesReply([
                ["lane": "a", "connected": true, "platform": "ios", "lastCallbackAt": "2024-05-01T09:59:58.000+00:00"]
            ]))
        #expect(state.lane("a")?.lastEventTime == "2024-05-01T09:59:58.000+00:00")
        let broken = WatchState().applying(
            snapshot: lanesReply([["lane": "a", "connected": "yes", "platform": "ios"]]))
        #expect(
            broken.notes.last
                == "the lanes query's answer does not follow the contract: result.lanes[0].connected: a boolean (required)"
        )
    }
}
