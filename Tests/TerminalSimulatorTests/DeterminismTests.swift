import Foundation
import Testing

@testable import TerminalSimulator

@Suite("Determinism under a seed")
struct DeterminismTests {
    static func run(seed: UInt64, platform: SimulatorPlatform) throws -> [String] {
        let fixture = try Fixture(lanes: [SimulatedLane(id: "lane", platform: platform)], seed: seed)
        let probe = fixture.probe()
        var callbacks: [String] = []
        for (index, amount) in [1200, 1051, 253, 4400, 152].enumerated() {
            callbacks.append(
                try probe.request(Requests.sale(amount: amount, clientTransactionId: "c\(index)", platform: platform)))
        }
        let reference = try #require(CallbackFields(callbacks[0])["referenceNumber"])
        callbacks.append(
            try probe.request(Requests.url(action: "cancel", [("referenceNumber", reference)], platform: platform)))
        callbacks.append(try probe.request(Requests.url(action: "batch", [("command", "open")], platform: platform)))
        return callbacks
    }

    @Test("the same seed gives the same callbacks", arguments: SimulatorPlatform.allCases)
    func sameSeed(platform: SimulatorPlatform) throws {
        #expect(try Self.run(seed: 42, platform: platform) == Self.run(seed: 42, platform: platform))
    }

    @Test("another seed gives other numbers")
    func otherSeed() throws {
        #expect(try Self.run(seed: 42, platform: .ios) != Self.run(seed: 43, platform: .ios))
    }

    @Test("a lane's numbers do not depend on the other lanes")
    func lanesIndependent() throws {
        let alone = try Fixture(lanes: [SimulatedLane(id: "b", platform: .ios)], seed: 5)
        let aloneCallback = try alone.probe("b").request(Requests.sale(amount: 100, platform: .ios))
        let together = try Fixture(
            lanes: [SimulatedLane(id: "a", platform: .ios), SimulatedLane(id: "b", platform: .ios)], seed: 5)
        _ = try together.probe("a").request(Requests.sale(amount: 100, platform: .ios))
        #expect(try together.probe("b").request(Requests.sale(amount: 100, platform: .ios)) == aloneCallback)
    }
}
