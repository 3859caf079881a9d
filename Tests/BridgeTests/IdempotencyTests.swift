import Bridge
import InterApp
import TerminalSimulator
import Testing

@Suite("Idempotency by id: never charge twice")
struct IdempotencyTests {
    @Test("the same command twice gives the same reply and one URL")
    func replayAfterFinal() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)
        ])
        let command = saleJSON(id: "same", lane: "lane-1", amount: 1500)
        let first = try harness.call(command)
        let second = try harness.call(command)
        #expect(first == second)
        #expect(harness.simulator.openedURLs(lane: "lane-1").count == 1)
    }

    @Test("a repeat while in flight joins it: both get the one outcome, one URL")
    func joinInFlight() throws {
        var behaviour = LaneBehaviour()
        behaviour.cardPresentment = .manual
        let harness = try BridgeHarness(
            lanes: [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)])
        let command = saleJSON(id: "join", lane: "lane-1", amount: 1500)
        try harness.send(command)
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .cardPresentment, timeout: .seconds(5)))
        try harness.send(command)
        _ = try harness.call(#"{"id":"p","action":"ping"}"#)
        harness.simulator.release(lane: "lane-1")
        let first = try harness.reply(to: "join")
        let second = try harness.reply(to: "join")
        #expect(first.string("outcome") == "success")
        #expect(first == second)
        #expect(harness.simulator.openedURLs(lane: "lane-1").count == 1)
    }

    @Test("the same id with other content is id_conflict, in flight and after")
    func conflict() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)
        ])
        _ = try harness.call(saleJSON(id: "c", lane: "lane-1", amount: 100))
        let other = try harness.call(saleJSON(id: "c", lane: "lane-1", amount: 200))
        #expect(other.object("error")?.string("code") == "id_conflict")
        #expect(harness.simulator.openedURLs(lane: "lane-1").count == 1)
    }
}
