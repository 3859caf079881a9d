import Foundation
import Testing

/// The embedded default runs Viva's simulated back office (docs/CLOUD.md, README's tour): a sale its lane
/// approves and never answers ends `unknown`, is resolved from Viva's records by itself, and the day
/// reconciles without a configuration file.
@Suite("vivabridge run: Viva's simulated back office on the embedded default")
struct EmbeddedBackOfficeTests {
    @Test("a sale ending in 54 is unknown, then resolved from Viva's records; journal reconcile matches the day")
    func unknownResolvedThenReconciled() throws {
        let run = try DefaultRun(http: "off")
        defer { run.remove() }
        let child = run.child
        defer {
            child.signal(SIGTERM)
            _ = child.waitForExit(timeout: 20)
        }
        let commandLine = try #require(child.waitForLine(containing: "commands (ROUTER):"), "\(child.errorOutput)")
        let command = try #require(commandLine.split(separator: " ").last.map(String.init))
        #expect(child.waitForErrorLine(containingAll: ["lane link up", "lane-1"]) != nil, "\(child.errorOutput)")

        let sale = try ChildProcess([
            "send", "sale", "--lane", "lane-1", "--amount", "20.54", "--id", "lost-1", "--timeout-ms", "2000",
            "--command-endpoint", command,
        ])
        #expect(sale.waitForExit(timeout: 30) == 4, "unknown: \(sale.output)\(sale.errorOutput)")
        #expect(
            child.waitForErrorLine(containing: "an unknown command was resolved from Viva's records") != nil,
            "\(child.errorOutput)")
        let status = try ChildProcess(["send", "status", "--ref", "lost-1", "--json", "--command-endpoint", command])
        #expect(status.waitForExit(timeout: 30) == 0)
        #expect(status.output.contains(#""outcome":"success""#), "\(status.output)")
        #expect(status.output.contains(#""by":"viva""#), "\(status.output)")

        let day = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        let reconcile = try ChildProcess(["journal", "reconcile", "--date", day], environment: run.environment)
        #expect(reconcile.waitForExit(timeout: 60) == 0, "\(reconcile.output)\(reconcile.errorOutput)")
        #expect(reconcile.output.contains("1 matched, 0 differences"), "\(reconcile.output)")
        #expect(!(child.output + child.errorOutput).contains("DEMO-CLIENT-SECRET"))
    }
}
