import ArgumentParser
import Bridge
import Foundation
import Logging
import ServiceLifecycle
import TerminalSimulator

/// `vivabridge run`: the bridge as a long-running service.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the bridge (on the embedded default with simulated lanes when no --config is given)."
    )

    @Option(name: .long, help: "The YAML configuration file (see docs/CONFIG.md).")
    var config: String?

    @Option(name: .long, help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = LogLevel(.info)

    func run() async throws {
        let logger = LogSetup.bootstrap(level: logLevel.level)
        let environment = ProcessInfo.processInfo.environment
        let configuration: BridgeConfiguration
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        do {
            if let config {
                configuration = try BridgeConfiguration.load(file: config, environment: environment)
            } else {
                configuration = try EmbeddedDefault.configuration(environment: environment)
                let simulator = Simulator(lanes: EmbeddedDefault.simulatedLanes(), logger: logger)
                services.append(.init(service: SimulatorService(simulator: simulator)))
            }
        } catch let error as ConfigurationError {
            FileHandle.standardError.write(Data("vivabridge: configuration refused: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let bridge = try Bridge(configuration: configuration, logger: logger)
        let embedded = config == nil
        services.append(
            .init(
                service: BridgeService(bridge: bridge) { bound in
                    Banner.print(bound: bound, configuration: configuration, embedded: embedded)
                }))
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
