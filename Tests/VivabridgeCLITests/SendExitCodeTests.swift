import Foundation
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

/// `vivabridge send` as a child process against an in-process bridge: its exit status tells the outcome.
@Suite("vivabridge send: exit status by outcome")
struct SendExitCodeTests {
    @Test("success exits 0 and says so, amount in euros")
    func success() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane()])
        let run = try bridge.send(["sale", "--lane", "lane-1", "--amount", "12.00", "--id", "ok-1"])
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
        #expect(run.output.contains("sale ok-1 on lane-1: success"))
        #expect(run.output.contains("12.00 (1200 cents)"))
        let opened = try #require(bridge.simulator.openedURLs(lane: "lane-1").last)
        #expect(opened.contains("amount=1200"))
    }

    @Test("reprint (v1.1): the last sale's receipt on an Android lane exits 0; an iOS-only spelling never leaks")
    func reprint() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane("lane-1", .android)])
        let sale = try bridge.send(["sale", "--lane", "lane-1", "--amount", "3.00"])
        #expect(sale.status == 0, "\(sale.output)\n\(sale.error)")
        let run = try bridge.send(["reprint", "--lane", "lane-1", "--id", "rp-1"])
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
        #expect(run.output.contains("reprint rp-1 on lane-1: success"))
        let opened = try #require(bridge.simulator.openedURLs(lane: "lane-1").last)
        #expect(opened.contains("action=print&command=reprint&callback="))
        let unknown = try bridge.send(["reprint", "--lane", "lane-1", "--order-code", "1020304050607080"])
        #expect(unknown.status == 1, "\(unknown.output)\n\(unknown.error)")
    }

    @Test("pre_auth then capture_pre_auth (v1.1): both exit 0; the capture names its authorisation")
    func preAuthAndCapture() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane()])
        let preAuth = try bridge.send(["pre_auth", "--lane", "lane-1", "--amount", "80.00", "--id", "pa-1", "--json"])
        #expect(preAuth.status == 0, "\(preAuth.output)\n\(preAuth.error)")
        let reply = try JSONValue.parse(Array(preAuth.output.utf8))
        let orderCode = try #require(reply["result"]?["orderCode"]?.stringValue)
        let capture = try bridge.send([
            "capture_pre_auth", "--lane", "lane-1", "--order-code", orderCode, "--amount", "62.40", "--json",
        ])
        #expect(capture.status == 0, "\(capture.output)\n\(capture.error)")
        #expect(capture.output.contains(#""authorisation":"pa-1""#))
        #expect(bridge.simulator.openedURLs(lane: "lane-1").last?.contains("&amount=6240") == true)
    }

    @Test("unreferenced_refund (v1.1) exits 0 and its raw reply marks the refund")
    func unreferencedRefund() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane("lane-1", .android)])
        let run = try bridge.send(["unreferenced_refund", "--lane", "lane-1", "--amount", "5.00", "--json"])
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
        #expect(run.output.contains(#""refund":{"unreferenced":true,"amount":500}"#))
    }

    @Test("fast_refund (v1.1) on an Android lane exits 0 and says the money went back; on an iOS lane it exits 2")
    func fastRefund() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane("lane-1", .android), CLIBridge.lane("lane-2", .ios)])
        let run = try bridge.send(["fast_refund", "--lane", "lane-1", "--amount", "5.00", "--id", "fr-1"])
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
        #expect(run.output.contains("FAST: money sent back to a card by fast refund of 5.00"))
        #expect(bridge.simulator.openedURLs(lane: "lane-1").last?.contains("action=send_money_fast_refund") == true)
        let ios = try bridge.send(["fast_refund", "--lane", "lane-2", "--amount", "5.00"])
        #expect(ios.status == 2, "\(ios.output)\n\(ios.error)")
        #expect(ios.output.contains("android"))
    }

    @Test("report (v1.1) on an iOS lane exits 0 and shows the totals; on an Android lane it exits 2")
    func report() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane("lane-1", .ios), CLIBridge.lane("lane-2", .android)])
        let open = try bridge.send(["batch", "--lane", "lane-1", "--command", "open", "--batch-name", "morning"])
        #expect(open.status == 0, "\(open.output)\n\(open.error)")
        let run = try bridge.send(["report", "--lane", "lane-1", "--batch-name", "morning"])
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
        #expect(run.output.contains("batchName"))
        #expect(run.output.contains("salesCount"))
        #expect(!run.output.contains("--json shows every field"))
        #expect(bridge.simulator.openedURLs(lane: "lane-1").last?.contains("action=getReport&command=summary") == true)
        let android = try bridge.send(["report", "--lane", "lane-2"])
        #expect(android.status == 2, "\(android.output)\n\(android.error)")
    }

    @Test("foreground (v1.1) exits 0 once the relay opened it")
    func foreground() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane()])
        let run = try bridge.send(["foreground", "--lane", "lane-1", "--id", "fg-1"])
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
        #expect(run.output.contains("foreground fg-1 on lane-1: success"))
        #expect(bridge.simulator.foregroundCount(lane: "lane-1") == 1)
    }

    @Test("a decline (amount ending in 51) exits 1")
    func decline() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane("lane-1", .android)])
        let run = try bridge.send(["sale", "--lane", "lane-1", "--amount", "12.51"])
        #expect(run.status == 1, "\(run.output)\n\(run.error)")
        #expect(run.output.contains(": failure"))
    }

    @Test("an unknown lane is rejected: exit 2, with the bridge's error code")
    func rejected() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane()])
        let run = try bridge.send(["sale", "--lane", "lane-9", "--amount", "1200"])
        #expect(run.status == 2, "\(run.output)\n\(run.error)")
        #expect(run.output.contains("unknown_lane"))
    }

    @Test("a lane whose relay is down is undeliverable: exit 3")
    func undeliverable() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane()])
        bridge.simulator.dropLink(lane: "lane-1")
        try #require(try bridge.event("lane-1.lane.disconnected") != nil, "the bridge never saw the link drop")
        let run = try bridge.send(["sale", "--lane", "lane-1", "--amount", "5.00"])
        #expect(run.status == 3, "\(run.output)\n\(run.error)")
        #expect(run.output.contains(": undeliverable"))
    }

    @Test("a deadline passed with the host still deciding is unknown: exit 4")
    func unknown() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane(host: .manual)])
        let run = try bridge.send([
            "sale", "--lane", "lane-1", "--amount", "7.00", "--timeout-ms", "1000", "--id", "slow",
        ])
        #expect(run.status == 4, "\(run.output)\n\(run.error)")
        #expect(run.output.contains("sale slow on lane-1: unknown"))
        #expect(bridge.simulator.phase(lane: "lane-1") == .host, "the simulated host should still be deciding")
        bridge.simulator.release(lane: "lane-1")
    }

    @Test("an abort with nothing in flight exits 0; a query exits 0")
    func nothingToAbortAndQueries() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane()])
        let abort = try bridge.send(["abort", "--lane", "lane-1"])
        #expect(abort.status == 0, "\(abort.output)\n\(abort.error)")
        #expect(abort.output.contains("nothing_to_abort"))
        let lanes = try bridge.send(["lanes"])
        #expect(lanes.status == 0)
        #expect(lanes.output.contains("lane-1  ios       up"), "\(lanes.output)")
    }

    @Test("--json prints the reply exactly as the bridge sent it, one line")
    func json() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane()])
        let run = try bridge.send(["ping", "--json", "--id", "p-1"])
        #expect(run.status == 0)
        let reply = try #require(try JSONValue.parse(run.output).objectValue, "not one JSON object: \(run.output)")
        #expect(reply["id"]?.stringValue == "p-1")
        #expect(reply["outcome"]?.stringValue == "success")
        #expect(reply["result"]?["version"]?.stringValue != nil)
        #expect(!run.output.contains("\n"))
    }

    @Test("no reply within --wait-ms exits 5 and says where it asked")
    func noReply() throws {
        // A ROUTER that never answers: the command is taken and nothing comes back.
        let context = try Context()
        defer { context.terminate() }
        let silent = try Socket(context, .router)
        defer { silent.close() }
        try silent.bind("tcp://127.0.0.1:*")
        let endpoint = try silent.lastEndpoint
        let child = try ChildProcess(["send", "ping", "--endpoint", endpoint, "--wait-ms", "300"])
        #expect(child.waitForExit() == 5)
        #expect(child.errorOutput.contains("no reply"))
        #expect(child.errorOutput.contains(endpoint))
    }

    @Test(
        "usage errors exit 64 and send nothing",
        arguments: [
            (["sale", "--lane", "lane-1", "--amount", "12.345"], "at most 2"),
            (["sale", "--amount", "12.00"], "sale needs --lane"),
            (["sale", "--lane", "lane-1"], "sale needs --amount"),
            (["abort", "--lane", "lane-1", "--amount", "1"], "not a parameter of abort"),
            (["status"], "status needs --ref"),
            (["batch", "--lane", "lane-1"], "--command"),
            (["sale", "--lane", "lane-1", "--amount", "1", "--param", "nokey"], "key=value"),
        ])
    func usage(arguments: [String], message: String) throws {
        let child = try ChildProcess(["send"] + arguments + ["--endpoint", "tcp://127.0.0.1:1", "--wait-ms", "100"])
        #expect(child.waitForExit() == 64)
        #expect(child.errorOutput.contains(message), "\(child.errorOutput)")
    }
}
