import Bridge
import Foundation
import Logging
import TerminalSimulator

/// What `vivabridge demo` runs in its own process: three simulated lanes and a bridge connected to them, on
/// ephemeral loopback ports, with a journal in a temporary folder. A bridge already running on this machine
/// (its ports, its `./.vivabridge`) is never touched.
final class DemoStage {
    /// The lanes: two iOS, one Android.
    static let lanes: [(id: String, platform: SimulatorPlatform)] = [
        ("lane-1", .ios), ("lane-2", .ios), ("lane-3", .android),
    ]
    /// How long the bridge keeps an aborted sale open for its own callback (5 s by default; short here).
    static let abortGraceMs = 500

    let folder: URL
    let simulator: Simulator
    let bridge: Bridge
    let bound: BoundEndpoints
    /// The keys of a demo with `--curve`; nil for plain sockets.
    let keys: DemoKeys?
    private var stopped = false

    /// Starts the simulator, then the bridge, and waits until the bridge said hello on every lane. With
    /// `keys`, every socket is CURVE: the bridge admits only the demo's till, pins the relays' key, and the
    /// relays admit only the bridge.
    init(logger: Logger, keys: DemoKeys? = nil) throws {
        self.keys = keys
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        simulator = Simulator(
            lanes: Self.lanes.map {
                var lane = SimulatedLane(id: $0.id, endpoint: "tcp://127.0.0.1:*", platform: $0.platform)
                lane.curveSecretKey = keys?.relay.secretKey
                return lane
            },
            seed: 2024, logger: logger, allowedBridgeKeys: keys.map { [$0.bridge.publicKey] })
        do {
            let endpoints = try simulator.start()
            var yaml = """
                command: tcp://127.0.0.1:*
                events: tcp://127.0.0.1:*
                journal: \(folder.path)/journal.sqlite
                abortGraceMs: \(Self.abortGraceMs)
                terminal: {merchantKey: DEMO-MERCHANT-KEY, appId: com.vivabridge.demo}

                """
            var pinned = ""
            if let keys {
                yaml += try keys.securitySection(folder: folder)
                pinned = ", relayPublicKey: \"\(keys.relay.publicKey)\""
            }
            yaml += "lanes:\n"
            for lane in Self.lanes {
                yaml += "  - {id: \(lane.id), endpoint: \"\(endpoints[lane.id]!)\", "
                yaml += "platform: \(lane.platform.rawValue)\(pinned)}\n"
            }
            // No environment: VIVABRIDGE_ variables meant for a real bridge must not move the demo's.
            let configuration = try BridgeConfiguration.load(yaml: yaml, environment: [:])
            bridge = try Bridge(configuration: configuration, logger: logger)
            bound = try bridge.start()
        } catch {
            simulator.stop()
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        for lane in Self.lanes where !simulator.waitForHello(lane: lane.id, timeout: .seconds(10)) {
            stop()
            throw DemoError("the bridge never connected to \(lane.id)")
        }
        guard bridge.awaitLanesUp(Self.lanes.map(\.id), timeout: .seconds(10)) else {
            stop()
            throw DemoError("a simulated relay never answered the bridge's hello")
        }
    }

    /// Stops the bridge (gracefully), then the lanes, and removes the temporary folder. Idempotent.
    func stop() {
        guard !stopped else { return }
        stopped = true
        bridge.stop()
        simulator.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }

    /// Sets how lane `lane`'s simulated terminal behaves from now on.
    func behave(_ lane: String, card: PhaseDuration, host: PhaseDuration) {
        simulator.setBehaviour(LaneBehaviour(cardPresentment: card, host: host), lane: lane)
    }
}

/// Why the demo could not go on.
struct DemoError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
