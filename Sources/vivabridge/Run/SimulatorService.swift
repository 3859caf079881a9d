import ServiceLifecycle
import TerminalSimulator

/// The in-process simulator as a `Service`, so it starts before the bridge and stops after it.
struct SimulatorService: Service {
    let simulator: Simulator

    func run() async throws {
        _ = try simulator.start()
        try? await gracefulShutdown()
        simulator.stop()
    }
}

/// Viva's simulated back office (already listening) as a `Service`: stopped after the bridge.
struct BackOfficeService: Service {
    let server: CloudBackOfficeServer

    func run() async throws {
        try? await gracefulShutdown()
        await server.stop()
    }
}
