import ArgumentParser
import Bridge
import BridgeHTTP
import Foundation
import Logging
import ServiceLifecycle
import TerminalSimulator

/// `vivabridge run`: the bridge as a long-running service.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the bridge (on the embedded default with simulated lanes when no --config is given).",
        discussion: """
            SIGTERM or SIGINT shut down gracefully (exit 0); a second one stops at once (exit 1). SIGHUP reloads \
            the file (the log level, the client allow-list and lanes added, removed or changed at once; other changes \
            are named and wait for a restart; a bad file changes nothing) and never ends the bridge. Under systemd (NOTIFY_SOCKET) it reports READY, RELOADING, \
            STOPPING and feeds WATCHDOG while its loop turns. With a PostgreSQL journal it waits as standby until it takes the journal's \
            lease, and goes back to standby when another bridge takes it. Exit 1: a component could not start or stopped on an error \
            (one line names it), or the journal's database could not be reached for longer than leaseMs; exit 2: the configuration was refused.
            """
    )

    @Option(name: .long, help: "The YAML configuration file (see docs/CONFIG.md).")
    var config: String?

    @Option(name: .long, help: "trace, debug, info, notice, warning, error or critical (default: log.level, info).")
    var logLevel: LogLevel?

    @Option(name: .long, help: "text or json (default: log.format, text).")
    var logFormat: LogSettings.Format?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let configuration: BridgeConfiguration
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        do {
            if let config {
                configuration = try BridgeConfiguration.load(file: config, environment: environment)
            } else {
                configuration = try EmbeddedDefault.configuration(environment: environment, backOffice: true)
            }
        } catch let error as ConfigurationError {
            Self.fail("configuration refused: \(error)", exitCode: 2)
        }
        let level = logLevel?.level ?? Logger.Level(rawValue: configuration.log.level) ?? .info
        let logger = LogSetup.bootstrap(level: level, format: logFormat ?? configuration.log.format)
        for warning in BridgeConfiguration.environmentWarnings(environment) {
            let message: Logger.Message =
                switch warning.kind {
                case .misspelt: "environment variable names no configuration key and is ignored (docs/CONFIG.md)"
                case .oldSpelling:
                    "environment variable in a key's old spelling, read for now: rename it (docs/CONFIG.md)"
                }
            logger.warning(message, metadata: ["variable": "\(warning.name)", "resembles": "\(warning.resembles)"])
        }
        let openFiles = DescriptorLimit.raiseSoftLimit()
        if DescriptorLimit.shortfall(lanes: configuration.lanes.count, limit: openFiles) != nil {
            logger.warning(
                "the open files limit is too low for the lanes: lanes past it stay down; raise it (systemd: LimitNOFILE)",
                metadata: [
                    "lanes": "\(configuration.lanes.count)",
                    "needed": "\(DescriptorLimit.needed(lanes: configuration.lanes.count))", "limit": "\(openFiles)",
                ])
        }
        // Trapped before anything binds or prints its banner: a SIGTERM at any moment after this is a
        // graceful stop, never the default action.
        let signals = await ProcessSignals.trap()
        if config == nil {
            // The embedded default's lanes are simulated here: bind them first, exactly where the bridge will
            // connect, so the bridge never attaches to relays some other process runs.
            // The lanes before the back office: a base port that is taken is said as the lanes' problem.
            let ledger = CloudLedger()
            let simulator = Simulator(
                lanes: EmbeddedDefault.simulatedLanes(for: configuration), logger: logger, ledger: ledger)
            do {
                try simulator.start()
            } catch {
                Self.fail("the simulated lanes could not start: \(error)", exitCode: 1)
            }
            services.append(.init(service: try await Self.startBackOffice(ledger: ledger, environment: environment)))
            services.append(.init(service: SimulatorService(simulator: simulator)))
        }
        let bridge: Bridge
        do {
            bridge = try Bridge(configuration: configuration, logger: logger)
        } catch {
            Self.fail("the bridge could not be set up: \(error)", exitCode: 1)
        }
        let embedded = config == nil
        let notifier = SystemdNotifier(environment: environment)
        if let http = configuration.http {
            // Before the bridge in the group: shut down after it, so /readyz says "draining" meanwhile.
            services.append(
                .init(
                    service: HTTPListener(
                        bridge: bridge, address: http, hosts: configuration.httpHosts, logger: logger
                    ) { bound in
                        Banner.printHTTP(bound)
                    }))
        }
        services.append(
            .init(
                service: BridgeService(
                    bridge: bridge,
                    onStart: { bound in
                        Banner.print(bound: bound, configuration: configuration, embedded: embedded)
                        notifier.ready("serving \(configuration.lanes.count) lane(s); commands on \(bound.command)")
                    },
                    onStandby: { notifier.ready("standby: waiting for the journal's lease") })))
        let group = ServiceGroup(configuration: .init(services: services, logger: logger))
        let reload = ConfigurationReload(
            bridge: bridge, file: config, running: configuration, levelFromFlag: logLevel != nil)
        do {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask {
                    await ProcessSignals.handle(signals, group: group, logger: logger, notifier: notifier) {
                        reload.perform(environment: environment, logger: logger)
                    }
                }
                if let interval = SystemdNotifier.watchdogMilliseconds(environment: environment) {
                    tasks.addTask {
                        await SystemdWatchdog.run(
                            notifier: notifier, intervalMs: interval, bridge: bridge, logger: logger)
                    }
                }
                try await group.run()
                tasks.cancelAll()
            }
        } catch {
            Self.fail(Self.describe(error), exitCode: Self.exitCode(error))
        }
    }

    /// Viva's simulated back office of the embedded default, on its port, recording what the simulated lanes
    /// do in `ledger`; exits 1 when its port is taken.
    private static func startBackOffice(ledger: CloudLedger, environment: [String: String]) async throws
        -> BackOfficeService
    {
        let port = try EmbeddedDefault.backOfficePort(environment: environment)
        let server = CloudBackOfficeServer(
            backOffice: CloudBackOffice(credentials: EmbeddedDefault.backOfficeCredentials, ledger: ledger),
            port: port)
        do {
            _ = try await server.start()
        } catch {
            fail(
                "Viva's simulated back office could not start on 127.0.0.1:\(port): \(error) (move it with "
                    + "VIVABRIDGE_SIMULATOR_BASEPORT: it follows the three lanes)", exitCode: 1)
        }
        return BackOfficeService(server: server)
    }

    /// 2 for what the operator must change in the set-up (a journal another bridge holds, or one a newer
    /// vivabridge wrote), else 1.
    private static func exitCode(_ error: any Error) -> Int32 {
        if let error = error as? BridgeServiceError, let journal = error.underlying as? JournalError,
            journal.isSetUpProblem
        {
            return 2
        }
        return 1
    }

    /// One line naming the component that ended the process.
    private static func describe(_ error: any Error) -> String {
        if let error = error as? ServiceGroupError {
            return "a component stopped unexpectedly (\(error)); the bridge is not running"
        }
        return "\(error)"
    }

    /// Prints `vivabridge: message` on standard error and exits.
    private static func fail(_ message: String, exitCode: Int32) -> Never {
        FileHandle.standardError.write(Data("vivabridge: \(message)\n".utf8))
        Foundation.exit(exitCode)
    }
}
