import Foundation
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

@testable import vivabridge

/// `vivabridge send resolve --ref ID --outcome success|failure [--note TEXT]` (issue 16): an `unknown`
/// command closed by hand, by an `admin` client when the bridge has security.
@Suite("vivabridge send resolve")
struct SendResolveTests {
    @Test("resolve's JSON: ref, outcome and the note, key by key; its default wait is 5 s")
    func request() throws {
        let command = try SendCommand.parse([
            "resolve", "--ref", "pos-1", "--outcome", "failure", "--note", #"declined "in" back office"#,
        ])
        #expect(
            JSONValue.object(try command.request(id: "q")).serializedString
                == #"{"id":"q","action":"resolve","ref":"pos-1","outcome":"failure","note":"declined \"in\" back office"}"#
        )
        #expect(command.defaultWaitMs == 5000)
        let bare = try SendCommand.parse(["resolve", "--ref", "pos-1", "--outcome", "success"])
        #expect(
            JSONValue.object(try bare.request(id: "q")).serializedString
                == #"{"id":"q","action":"resolve","ref":"pos-1","outcome":"success"}"#)
    }

    @Test(
        "resolve's usage errors, each saying what to write",
        arguments: [
            (["resolve", "--outcome", "success"], "resolve needs --ref"),
            (["resolve", "--ref", "x"], "resolve needs --outcome success|failure"),
            (["resolve", "--ref", "x", "--outcome", "unknown"], "give success or failure"),
            (["resolve", "--ref", "x", "--outcome", "success", "--note", ""], "--note is 1 to 1000 bytes"),
            (["resolve", "--ref", "x", "--outcome", "success", "--lane", "l"], "--lane does not apply to resolve"),
            (["sale", "--lane", "l", "--amount", "1", "--outcome", "success"], "apply only to resolve"),
            (["status", "--ref", "x", "--note", "n"], "apply only to resolve"),
        ])
    func usageErrors(arguments: [String], message: String) {
        do {
            _ = try SendCommand.parse(arguments)
            Issue.record("\(arguments) was accepted")
        } catch {
            #expect(SendCommand.message(for: error).contains(message), "\(arguments): \(error)")
        }
    }

    @Test("the readable answer: what was closed, as what, by whom, with the note and the new reply")
    func words() throws {
        let answer = try #require(
            try JSONValue.parse(
                Array(
                    #"{"id":"r","action":"resolve","outcome":"success","result":{"ref":"s-1","outcome":"success","reply":{"id":"s-1","lane":"lane-1","action":"sale","outcome":"success","earlier":{"outcome":"unknown","message":"m"},"resolved":{"by":"backoffice","at":"2026-11-24T18:00:00.000+00:00","note":"seen approved"},"late":false}},"late":false}"#
                        .utf8)
            ).objectValue)
        let text = SendReport.renderResolve(answer)
        #expect(text.hasPrefix("resolve of s-1: closed as success (it was unknown)\n"), "\(text)")
        #expect(text.contains("  by    backoffice\n") && text.contains("  note  seen approved\n"), "\(text)")
        #expect(text.contains("    sale s-1 on lane-1: success\n"), "\(text)")
        let refused = try #require(
            try JSONValue.parse(
                Array(
                    #"{"id":"r","action":"resolve","outcome":"rejected","error":{"code":"not_unknown","message":"s-1 ended success"},"late":false}"#
                        .utf8)
            ).objectValue)
        #expect(SendReport.renderResolve(refused).contains("error  not_unknown: s-1 ended success"))
    }

    @Test("with security: a commands client is refused (exit 2), the admin closes the unknown sale (exit 0), once")
    func resolveAsAdmin() throws {
        let keys = try KeyFolder(prefix: "vivabridge-resolve")
        defer { keys.remove() }
        let bridgeKeys = try CurveKeyPair.generate()
        let pos = try CurveKeyPair.generate()
        let admin = try CurveKeyPair.generate()
        let keyFile = keys.keyFile
        let bridgeKeyFile = keyFile("bridge.key", bridgeKeys.secretKey)
        let posKeys = ["--key-file", keyFile("pos.key", pos.secretKey), "--server-key", bridgeKeys.publicKey]
        let adminKeys = ["--key-file", keyFile("admin.key", admin.secretKey), "--server-key", bridgeKeys.publicKey]
        // The terminal never answers: a sale ends unknown at its deadline.
        var silent = LaneBehaviour.zeroDelay
        silent.host = .manual
        let bridge = try RunningBridge(
            behaviour: silent,
            extra: """
                security:
                  secretKeyFile: \(bridgeKeyFile)
                  requireLaneKeys: false
                  clients:
                    - {name: pos-7, publicKey: "\(pos.publicKey)", roles: [commands]}
                    - {name: backoffice, publicKey: "\(admin.publicKey)", roles: [admin]}
                """)
        /// Runs `vivabridge send` to its end; its exit status is nil when it did not end within 30 s.
        func send(_ arguments: [String], keys: [String]) throws -> (status: Int32?, output: String, errorOutput: String)
        {
            let child = try ChildProcess(
                ["send"] + arguments + ["--command-endpoint", bridge.command, "--wait-ms", "10000"] + keys)
            let status = child.waitForExit(timeout: 30)
            return (status, child.output, child.errorOutput)
        }

        let sale = try send(
            ["sale", "--lane", "lane-1", "--amount", "41.00", "--id", "s-1", "--timeout-ms", "1000"], keys: posKeys)
        #expect(sale.status == 4, "\(sale.output)\n\(sale.errorOutput)")
        let resolve = ["resolve", "--ref", "s-1", "--outcome", "success", "--note", "approved in Viva's back office"]

        let byPos = try send(resolve, keys: posKeys)
        #expect(byPos.status == 2, "\(byPos.output)\n\(byPos.errorOutput)")
        #expect(byPos.output.contains("not_allowed"), "\(byPos.output)")

        let byAdmin = try send(resolve + ["--id", "fix-1"], keys: adminKeys)
        #expect(byAdmin.status == 0, "\(byAdmin.output)\n\(byAdmin.errorOutput)")
        #expect(byAdmin.output.contains("resolve of s-1: closed as success (it was unknown)"), "\(byAdmin.output)")
        #expect(byAdmin.output.contains("by    backoffice"), "\(byAdmin.output)")
        #expect(byAdmin.output.contains("note  approved in Viva's back office"), "\(byAdmin.output)")
        #expect(byAdmin.output.contains("sale s-1 on lane-1: success"), "\(byAdmin.output)")

        let status = try send(["status", "--ref", "s-1", "--json"], keys: posKeys)
        #expect(status.status == 0)
        let stored = try #require(try JSONValue.parse(Array(status.output.utf8)).objectValue?["result"]?.objectValue)
        #expect(stored["outcome"]?.stringValue == "success")
        #expect(stored["reply"]?.objectValue?["resolved"]?.objectValue?["by"]?.stringValue == "backoffice")

        let again = try send(resolve + ["--json"], keys: adminKeys)
        #expect(again.status == 2, "\(again.output)")
        #expect(again.output.contains(#""code":"not_unknown""#), "\(again.output)")

        let export = try ChildProcess([
            "journal", "export", "--journal", bridge.folder.appendingPathComponent("journal.sqlite").path,
            "--format", "jsonl",
        ])
        #expect(export.waitForExit(timeout: 30) == 0, "\(export.errorOutput)")
        let row = try #require(try JSONValue.parse(export.output).objectValue)
        #expect(row["id"]?.stringValue == "s-1" && row["outcome"]?.stringValue == "success")
        #expect(row["client"]?.stringValue == "pos-7" && row["resolvedBy"]?.stringValue == "backoffice")
        #expect(row["note"]?.stringValue == "approved in Viva's back office" && row["amount"]?.intValue == 4100)
        bridge.child.signal(SIGTERM)
        #expect(bridge.child.waitForExit(timeout: 30) == 0)
    }
}
