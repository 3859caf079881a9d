import ArgumentParser
import Foundation
import Logging
import TerminalSimulator
import ZeroMQ

/// `vivabridge simulate`: simulated Viva Terminal lanes on loopback, until SIGINT or SIGTERM.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run simulated Viva Terminal lanes (relay and app) for the bridge to talk to.",
        discussion: """
            Binds lanes lane-1 … lane-N at tcp://127.0.0.1:P … P+N-1 (ROUTER relays) and prints one line per \
            lane, "<lane> <endpoint> <platform>", then runs until SIGINT or SIGTERM and exits 0. With \
            --platform mixed, odd lanes are iOS and even lanes Android. Sale outcomes follow the amount: \
            …51 declined, …52 cancelled by the cardholder, …53 host error, anything else approved. \
            See docs/SIMULATOR.md.
            """
    )

    enum PlatformChoice: String, ExpressibleByArgument, CaseIterable {
        case ios, android, mixed
    }

    enum EncodingChoice: String, ExpressibleByArgument, CaseIterable {
        case realistic, clean
    }

    @Option(help: "How many lanes to run.")
    var lanes: Int = 1

    @Option(
        name: .customLong("base-port"),
        help: "The port of lane-1; lane-i gets base-port + i - 1. 0: every lane on a free port (printed).")
    var basePort: Int = 6001

    @Option(help: "The app's platform, which decides the callback dialect: ios, android or mixed.")
    var platform: PlatformChoice = .ios

    @Option(name: .customLong("card-ms"), help: "How long the cardholder takes to present a card, in ms.")
    var cardMilliseconds: Int = 1500

    @Option(name: .customLong("host-ms"), help: "How long the host takes to answer once the card is read, in ms.")
    var hostMilliseconds: Int = 700

    @Option(
        name: .customLong("screen-ms"),
        help: "How long each screen a request asks for (show_receipt, show_transaction_result, show_rating) stays.")
    var screenMilliseconds = 0

    @Flag(name: .customLong("zero-delay"), help: "Answer at once (both phases 0 ms), for benchmarks.")
    var zeroDelay = false

    @Option(help: "The seed of every generated number (same seed, same callbacks).")
    var seed: UInt64 = 1

    @Option(help: "How callback values are written: realistic (as the apps do) or clean (all percent-encoded).")
    var encoding: EncodingChoice = .realistic

    @Option(
        help: ArgumentHelp(
            "Append one line per request URL received to FILE: lane, reference, clientTransactionId, URL (tabs); "
                + "with --cloud, one per cloud session posted (lane cloud:TID).",
            valueName: "FILE"))
    var record: String?

    @Flag(help: "Log the simulator's activity to standard error.")
    var verbose = false

    @Option(
        name: .customLong("secret-key-file"),
        help: "Serve every lane as a CURVE server with this secret key (the bridge pins its public key).")
    var secretKeyFile: String?

    @Option(
        name: .customLong("allow-key"),
        help: ArgumentHelp(
            "Admit only the bridge with this CURVE public key (Z85, or a .pub file); repeat for several bridges. "
                + "Needs --secret-key-file.",
            valueName: "KEY|FILE"))
    var allowKeys: [String] = []

    @Option(
        name: .customLong("unanswered-ending"),
        help: ArgumentHelp(
            "Approve a sale whose amount ends in these two digits and never answer it (the app killed after the "
                + "approval), as the embedded default does with 54.", valueName: "NN"))
    var unansweredEnding: Int?

    @OptionGroup(title: "Viva's simulated back office")
    var cloud: SimulatedCloudOptions

    func validate() throws {
        guard (1...1024).contains(lanes) else { throw ValidationError("--lanes must be between 1 and 1024.") }
        guard basePort == 0 || ((1...65535).contains(basePort) && basePort + lanes - 1 <= 65535) else {
            throw ValidationError("--base-port must leave room for \(lanes) ports below 65536.")
        }
        guard cardMilliseconds >= 0, hostMilliseconds >= 0, screenMilliseconds >= 0 else {
            throw ValidationError("--card-ms, --host-ms and --screen-ms must not be negative.")
        }
        if let unansweredEnding, !(0...99).contains(unansweredEnding) {
            throw ValidationError("--unanswered-ending takes two digits, 00 to 99")
        }
        _ = try relaySecretKey()
        _ = try allowedBridgeKeys()
    }

    /// The bridges' public keys from `--allow-key` (each Z85 text or a file holding it), or nil for any bridge.
    func allowedBridgeKeys() throws -> Set<String>? {
        guard !allowKeys.isEmpty else { return nil }
        guard secretKeyFile != nil else {
            throw ValidationError("--allow-key needs --secret-key-file: only CURVE relays authenticate their bridge")
        }
        return Set(
            try allowKeys.map { given in
                if Z85.isKey(given) { return given }
                guard let key = CurveKeyFile.read(given) else {
                    throw ValidationError("--allow-key \(given): neither a Z85 public key nor a readable key file")
                }
                return key
            })
    }

    /// The relays' CURVE secret key from `--secret-key-file`, or nil for plain relays.
    func relaySecretKey() throws -> String? {
        guard let secretKeyFile else { return nil }
        guard let key = CurveKeyFile.read(secretKeyFile) else {
            throw ValidationError("--secret-key-file \(secretKeyFile): not a readable CURVE secret key (one Z85 line)")
        }
        return key
    }

    func run() throws {
        var observer: RequestObserver?
        if let record {
            let recorder = try RequestRecorder(path: record)
            observer = { recorder.record($0) }
        }
        let ledger = cloud.port == nil ? nil : CloudLedger(seed: seed)
        let backOffice = try ledger.map { try cloud.start(ledger: $0, seed: seed, sessionPosted: observer) }
        let simulator = Simulator(
            lanes: simulatedLanes(), seed: seed, logger: verbose ? stderrLogger() : nil, requestObserver: observer,
            allowedBridgeKeys: try allowedBridgeKeys(), ledger: ledger)
        let endpoints = try simulator.start()
        // One unbuffered write, so that a script reading a pipe sees every line at once.
        var lines = simulatedLanes().map { "\($0.id) \(endpoints[$0.id] ?? $0.endpoint) \($0.platform.rawValue)\n" }
        if let backOffice { lines.append("viva-cloud \(backOffice.url)\n") }
        FileHandle.standardOutput.write(Data(lines.joined().utf8))

        // SIGINT and SIGTERM are ignored as signals and taken as events, whichever thread they hit.
        let stopped = DispatchSemaphore(value: 0)
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stopped.signal() }
            source.resume()
            return source
        }
        stopped.wait()
        for source in sources { source.cancel() }
        simulator.stop()
        backOffice?.stop()
    }

    /// The lanes asked for: `lane-i` at base-port + i - 1.
    func simulatedLanes() -> [SimulatedLane] {
        let phases: PhaseDuration = .milliseconds(0)
        let behaviour = LaneBehaviour(
            cardPresentment: zeroDelay ? phases : .milliseconds(cardMilliseconds),
            host: zeroDelay ? phases : .milliseconds(hostMilliseconds),
            screens: zeroDelay ? phases : .milliseconds(screenMilliseconds),
            encoding: encoding == .clean ? .clean : .realistic, unansweredAmountEnding: unansweredEnding)
        return (1...lanes).map { index in
            let lanePlatform: SimulatorPlatform =
                switch platform {
                case .ios: .ios
                case .android: .android
                case .mixed: index % 2 == 1 ? .ios : .android
                }
            var lane = SimulatedLane(
                id: "lane-\(index)", endpoint: "tcp://127.0.0.1:\(basePort == 0 ? "*" : String(basePort + index - 1))",
                platform: lanePlatform,
                behaviour: behaviour)
            lane.curveSecretKey = try? relaySecretKey()
            return lane
        }
    }

    private func stderrLogger() -> Logger {
        var logger = Logger(label: "vivabridge.simulate", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = .debug
        return logger
    }
}
