import Foundation
import Testing
import ZeroMQ

@testable import TerminalSimulator

/// A running simulator with a probe per lane, each connected and past its hello.
final class Fixture {
    let context: Context
    let simulator: Simulator
    let clock: ManualSimulatorClock
    private(set) var probes: [String: BridgeProbe] = [:]

    /// One lane per platform given, ids `ios-1`, `android-1`, … (or `lane`).
    init(
        lanes: [SimulatedLane], seed: UInt64 = 7, clock: ManualSimulatorClock = ManualSimulatorClock(),
        hello: Bool = true, requestObserver: RequestObserver? = nil, ledger: CloudLedger? = nil
    ) throws {
        context = try Context()
        self.clock = clock
        simulator = Simulator(
            lanes: lanes, context: context, clock: clock, seed: seed, requestObserver: requestObserver,
            ledger: ledger)
        let endpoints = try simulator.start()
        for lane in lanes {
            let probe = try BridgeProbe(context: context, endpoint: try #require(endpoints[lane.id]), lane: lane.id)
            if hello { try probe.hello() }
            probes[lane.id] = probe
        }
    }

    /// A fixture with one lane of `platform` and `behaviour`.
    convenience init(
        _ platform: SimulatorPlatform, behaviour: LaneBehaviour = LaneBehaviour(), socket: RelaySocketKind = .router,
        seed: UInt64 = 7
    ) throws {
        try self.init(
            lanes: [SimulatedLane(id: "lane", platform: platform, behaviour: behaviour, socket: socket)], seed: seed)
    }

    /// The probe of the only (or named) lane.
    func probe(_ lane: String = "lane") -> BridgeProbe { probes[lane]! }

    deinit {
        probes.removeAll()
        simulator.stop()
        context.terminate()
    }
}

extension Duration {
    static let wait = Duration.seconds(5)
}
