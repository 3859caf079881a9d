import ArgumentParser
import Foundation
import TerminalSimulator

/// `vivabridge-bench`: the bridge's benchmarks, one table of figures each beside a baseline from the same run.
@main
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vivabridge-bench",
        abstract: "Measure the bridge: end to end against a raw relay, the journal, the protocol core, and scale.",
        discussion: "Prints one table (section, figure, value, baseline, ratio, target, met?). See docs/PERFORMANCE.md."
    )

    enum Section: String, ExpressibleByArgument, CaseIterable {
        case e2e, journal
        case journalStart = "journal-start"
        case `protocol`, scale, postgres
    }

    enum Encoding: String, ExpressibleByArgument {
        case realistic, clean
    }

    @Option(help: "Simulated lanes of the end-to-end runs and the memory run.")
    var lanes: Int = 64

    @Option(help: "DEALER clients, each on its own thread, each owning lanes/clients lanes.")
    var clients: Int = 4

    @Option(help: "Sales in flight per client (at most its lane count: one sale per lane at a time).")
    var window: Int = 16

    @Option(help: "Measured seconds per end-to-end run (after the warm-up).")
    var seconds: Double = 10

    @Option(help: "Warm-up seconds before each end-to-end run is measured.")
    var warmup: Double = 2

    @Option(help: "Sales per second of the paced runs (p99 added by the bridge).")
    var pacedRate: Double = 1000

    @Option(help: "Sales per second of the postgres section's paced runs (p99 added with the journal on PostgreSQL).")
    var postgresPacedRate: Double = 100

    @Option(help: "Measured seconds of the postgres section's paced runs (enough samples for a p99.9 at their rate).")
    var postgresPacedSeconds: Double = 30

    @Option(help: "Lanes of the wide paced runs (the same rate spread over many lanes).")
    var wideLanes: Int = 1000

    @Option(help: "Sales of the memory run; RSS is compared at a tenth and at all of them.")
    var salesForMemory: Int = 1_000_000

    @Option(help: "Finished sales in the journal of the journal-start section (1 M: the bridge serves within 2 s).")
    var retainedCommands: Int = 1_000_000

    @Option(help: "Lanes of the idle run.")
    var idleLanes: Int = 1000

    @Option(help: "Seconds of the idle CPU window.")
    var idleSeconds: Double = 5

    @Option(help: "Seconds per journal case and per protocol-core figure.")
    var microSeconds: Double = 2

    @Option(help: "Callback encoding of the simulated terminals: realistic or clean.")
    var encoding: Encoding = .realistic

    @Option(help: "Where journals and child configurations go (a real disk: tmpfs would make `full` sync free).")
    var journalDir: String = FileManager.default.temporaryDirectory.path

    @Option(help: "The vivabridge binary for the scale section (default: the one beside this one).")
    var bridgeBinary: String?

    @Option(help: "Run only these sections: e2e, journal, journal-start, protocol, scale, postgres (repeatable).")
    var only: [Section] = []

    @Option(
        help: ArgumentHelp(
            "Only these end-to-end runs (for profiling): sim-normal, sim-full, sim-curve, sim-http, sim-http-lane, sim-sub, sim-android, echo, raw, raw-own-context, paced-sim, paced-echo, paced-raw, paced-raw-own-context, paced-echo-wide, paced-raw-wide.",
            visibility: .hidden))
    var e2eRun: [EndToEndSection.Run] = []

    @Flag(help: "Tiny counts and durations: every row in a few seconds, figures meaningless.")
    var smoke = false

    @Option(
        help: ArgumentHelp(
            "Instead of the suite: the sales scripts/bench-instructions counts under callgrind, journal normal or full.",
            valueName: "sync"))
    var instructionWorkload: InstructionJournal?

    @Option(help: "Warm-up sales of --instruction-workload (not counted).")
    var instructionWarmup = InstructionWorkload.defaultWarmup

    @Option(help: "Counted sales of --instruction-workload.")
    var instructionSales = InstructionWorkload.defaultCounted

    mutating func run() throws {
        if let instructionWorkload {
            try runInstructionWorkload(instructionWorkload)
            return
        }
        if smoke {
            lanes = min(lanes, 8)
            clients = min(clients, 2)
            window = min(window, 4)
            seconds = 0.3
            warmup = 0.1
            pacedRate = min(pacedRate, 200)
            postgresPacedSeconds = seconds
            salesForMemory = min(salesForMemory, 1000)
            idleLanes = min(idleLanes, 20)
            wideLanes = min(wideLanes, 20)
            idleSeconds = 0.3
            microSeconds = 0.05
        }
        guard lanes >= 1, clients >= 1, window >= 1, seconds > 0, salesForMemory >= 10, idleLanes >= 1,
            wideLanes >= 1, postgresPacedRate > 0, postgresPacedSeconds > 0
        else {
            throw ValidationError(
                "lanes, clients, window, seconds, idle-lanes, wide-lanes, postgres-paced-rate, postgres-paced-seconds "
                    + "must be positive; sales-for-memory >= 10")
        }
        let sections = only.isEmpty ? Section.allCases : only
        let folder = journalDir
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let log: (String) -> Void = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
        let machine = Machine.describe(journalFolder: folder)
        log(machine)
        let encoding: CallbackEncoding = self.encoding == .clean ? .clean : .realistic

        var results: [SectionResult] = []
        for section in sections {
            log("\(section.rawValue) ...")
            switch section {
            case .e2e:
                let shape = RunShape(
                    lanes: lanes, clients: clients, window: window, warmupSeconds: warmup, seconds: seconds,
                    pacedRate: nil, encoding: encoding, journalFolder: folder)
                results.append(
                    EndToEndSection(
                        shape: shape, pacedRate: pacedRate, wideLanes: wideLanes, runs: Set(e2eRun), log: log
                    ).run())
            case .postgres:
                let shape = RunShape(
                    lanes: lanes, clients: clients, window: window, warmupSeconds: warmup, seconds: seconds,
                    pacedRate: nil, encoding: encoding, journalFolder: folder)
                results.append(
                    PostgresSection(
                        shape: shape, pacedRate: postgresPacedRate, pacedSeconds: postgresPacedSeconds, log: log
                    ).run())
            case .journal:
                results.append(
                    JournalSection(
                        seconds: microSeconds, folder: folder, journaledSales: smoke ? 1000 : 100_000, log: log
                    ).run())
            case .journalStart:
                results.append(
                    JournalStartSection(commands: smoke ? 2000 : retainedCommands, folder: folder, log: log).run())
            case .protocol:
                results.append(ProtocolSection(seconds: microSeconds / 2, log: log).run())
            case .scale:
                guard let binary = bridgeBinary ?? ChildBridge.defaultBinary() else {
                    results.append(
                        SectionResult(failures: [
                            "scale: no vivabridge binary beside this one; build it (swift build --product vivabridge) "
                                + "or pass --bridge-binary"
                        ]))
                    continue
                }
                results.append(
                    ScaleSection(
                        binary: binary, idleLanes: idleLanes, idleSeconds: idleSeconds, lanes: lanes, clients: clients,
                        window: window, salesForMemory: salesForMemory, encoding: encoding, folder: folder, log: log
                    ).run())
            }
        }

        var rows = results.flatMap(\.rows)
        if smoke {
            for index in rows.indices { rows[index].verdict = .none }  // tiny counts judge nothing
        }
        let failures = results.flatMap(\.failures)
        var report = [machine, ""]
        report.append(Table.render(rows))
        report.append("")
        report += results.flatMap(\.notes).map { "- " + $0 }
        if smoke { report.append("- smoke run: tiny counts, the figures mean nothing") }
        for failure in failures { report.append("FAILED: " + failure) }
        print(report.joined(separator: "\n"))
        if !failures.isEmpty { throw ExitCode(1) }
    }
}
