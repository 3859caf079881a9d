import Foundation
import TerminalSimulator
import Testing
import ZeroMQ

/// A sale on lane-1 that a client of the test's own sent and the bridge holds in flight: the lane had
/// it (its URL reached the simulator) and, behaving as `.neverAnswer`, never answers it. ``close()``
/// closes the client.
struct HeldSale {
    private let context: Context
    private let client: Socket

    /// Sends the sale `held` (100) to `bridge` and waits until its lane has it.
    init(on bridge: RunningBridge) throws {
        context = try Context()
        do {
            client = try Socket(context, .dealer)
        } catch {
            context.terminate()
            throw error
        }
        try client.connect(bridge.command)
        try client.send([Array(#"{"id":"held","lane":"lane-1","action":"sale","amount":100}"#.utf8)])
        #expect(bridge.simulator.waitForURLs(lane: "lane-1", count: 1, timeout: .seconds(10)))
    }

    func close() {
        client.close()
        context.terminate()
    }
}

extension RunningBridge {
    /// A bridge whose one lane (lane-1) never answers, with `grace` ms to drain, holding a sale
    /// (``HeldSale``) in flight.
    static func holdingASale(grace: Int) throws -> (bridge: RunningBridge, sale: HeldSale) {
        var behaviour = LaneBehaviour()
        behaviour.fault = .neverAnswer
        let bridge = try RunningBridge(behaviour: behaviour, grace: grace)
        return (bridge, try HeldSale(on: bridge))
    }
}
