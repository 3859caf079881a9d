import ArgumentParser
import Foundation
import Logging
import ZeroMQ

/// `vivabridge demo`: a bridge and three simulated lanes in this process, a scripted session, checked.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run a scripted multi-lane session against an in-process bridge, checking every step.",
        discussion: """
            Starts its own bridge and three simulated lanes (lane-1 and lane-2 iOS, lane-3 Android) on ephemeral \
            loopback ports, with a journal in a temporary folder: a bridge already running is never touched. \
            Then: three sales at once, a decline, an abort before and after the card is read, a batch opened \
            and closed, and a sale whose deadline passes (unknown) before its late result. Every command, \
            reply and event is printed. Exits 0 when every step ended as expected, 1 (naming the step) otherwise.
            """
    )

    @Option(help: "The bridge's log level (on standard error).")
    var logLevel = LogLevel(.error)

    @Flag(help: "CURVE on every socket: fresh keys, the till on the bridge's allow-list, pinned relay keys.")
    var curve = false

    func run() throws {
        let level = logLevel.level
        let logger = Logger(label: "vivabridge.demo") { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let print: (String) -> Void = { WatchTerminal.write($0 + "\n") }
        print("vivabridge demo: a bridge and three simulated lanes in this process.")
        let stage = try DemoStage(logger: logger, keys: curve ? try DemoKeys.generate() : nil)
        defer { stage.stop() }
        print("  commands (ROUTER) \(stage.bound.command), events (XPUB) \(stage.bound.events)")
        if let keys = stage.keys { print("  " + keys.description) }
        print("  journal in \(stage.folder.path) (removed at the end)")
        print("  lanes: " + DemoStage.lanes.map { "\($0.id) (\($0.platform.rawValue))" }.joined(separator: ", "))
        print("  '->' is a command sent, '<-' its reply, 'event' what every subscriber sees.")

        let context = try Context()
        defer { context.terminate() }
        let session = try DemoSession(
            context: context, bound: (stage.bound.command, stage.bound.events), curve: stage.keys?.client,
            print: print)
        defer { session.close() }
        try session.awaitSubscription(simulator: stage.simulator, lane: DemoStage.lanes[0].id)

        var steps = DemoScript.plan
        let script = DemoScript(stage: stage, session: session, print: print)
        var failed: Int?
        for index in steps.indices {
            print("")
            print("Step \(index + 1)/\(steps.count): \(steps[index].title) (expected: \(steps[index].expected))")
            steps[index].ran = true
            do {
                let (got, passed) = try script.run(step: index)
                steps[index].got = got
                steps[index].passed = passed
            } catch {
                steps[index].got = "\(error)"
            }
            try session.drain()
            print(steps[index].passed ? "  => as expected" : "  => NOT as expected: \(steps[index].got)")
            if !steps[index].passed {
                failed = index
                break
            }
        }
        print("")
        print(DemoSummary.render(steps))
        if let failed {
            WatchTerminal.writeError(
                "vivabridge demo: step \(failed + 1) (\(steps[failed].title)) did not end as expected: "
                    + "expected \(steps[failed].expected), got \(steps[failed].got)\n")
            throw ExitCode(1)
        }
        print("Every step ended as expected. Next: `vivabridge run` for a bridge of your own, then")
        print("`vivabridge watch` and `vivabridge send sale --lane lane-1 --amount 12.00` in other terminals.")
    }
}

/// The table that ends the demo.
enum DemoSummary {
    static func render(_ steps: [DemoStep]) -> String {
        let rows = steps.enumerated().map { index, step in
            ["\(index + 1)", step.title, step.expected, step.got, step.ran ? (step.passed ? "ok" : "FAILED") : "-"]
        }
        let all = [["#", "step", "expected", "got", ""]] + rows
        let widths = (0..<5).map { column in all.map { $0[column].count }.max() ?? 0 }
        let lines = all.map { row in
            row.enumerated().map { column, cell in
                column == 4 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ").trimmingTrailingSpaces
        }
        return "Summary\n" + lines.map { "  " + $0 }.joined(separator: "\n")
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
