import Bridge
import Foundation
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

@Suite("Pre-auth and capture end to end (v1.1)")
struct PreAuthEndToEndTests {
    @Test(
        "a pre-auth and its capture on each platform: own topics, status links the capture to its authorisation",
        arguments: [Platform.ios, .android])
    func authoriseThenCapture(platform: Platform) throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: platform == .ios ? .ios : .android)
        ])
        let preAuth = try harness.call(#"{"id":"pa-1","lane":"lane-1","action":"pre_auth","amount":8000}"#)
        #expect(preAuth.string("outcome") == "success")
        #expect(preAuth.string("action") == "pre_auth")
        #expect(preAuth.object("result")?.string("clientTransactionId") == "pa-1")
        #expect(preAuth.object("result")?.int("amount") == 8000)
        #expect(preAuth["amountMismatch"] == nil)
        let orderCode = try #require(preAuth.object("result")?.string("orderCode"))
        #expect(try harness.event("lane-1.pre_auth.result").string("id") == "pa-1")

        let command =
            #"{"id":"cap-1","lane":"lane-1","action":"capture_pre_auth","amount":6240,"orderCode":"\#(orderCode)"}"#
        let capture = try harness.call(command)
        #expect(capture.string("outcome") == "success")
        #expect(capture.string("authorisation") == "pa-1")
        #expect(capture.object("result")?.int("amount") == 6240)
        for event in ["accepted", "forwarded", "delivered"] {
            #expect(try harness.event("lane-1.capture_pre_auth.\(event)").string("id") == "cap-1")
        }
        #expect(try harness.event("lane-1.capture_pre_auth.result").string("authorisation") == "pa-1")
        let status = try harness.call(#"{"id":"st","action":"status","ref":"cap-1"}"#)
        #expect(status.object("result")?.string("state") == "final")
        #expect(status.object("result")?.object("reply")?.string("authorisation") == "pa-1")
        let opened = harness.simulator.openedURLCount(lane: "lane-1")
        #expect(try harness.call(command) == capture, "idempotent by id")
        #expect(harness.simulator.openedURLCount(lane: "lane-1") == opened)
        #expect(harness.simulator.history(lane: "lane-1").map(\.kind) == [.preAuth, .capture])
    }

    @Test("a declined pre-auth is a failure with its reason; a capture the terminal cannot match links nothing")
    func declinedAndUnmatched() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .android)
        ])
        let declined = try harness.call(#"{"id":"pa-1","lane":"lane-1","action":"pre_auth","amount":1051}"#)
        #expect(declined.string("outcome") == "failure")
        #expect(declined.string("reason") == "declined")
        let unmatched = try harness.call(
            #"{"id":"cap-1","lane":"lane-1","action":"capture_pre_auth","orderCode":"1020304050607080"}"#)
        #expect(unmatched.string("outcome") == "failure")
        #expect(unmatched["authorisation"] == nil)
        let approved = try harness.call(#"{"id":"pa-2","lane":"lane-1","action":"pre_auth","amount":3000}"#)
        let reference = try #require(approved.object("result")?.string("referenceNumber"))
        let whole = try harness.call(
            #"{"id":"cap-2","lane":"lane-1","action":"capture_pre_auth","referenceNumber":"\#(reference)"}"#)
        #expect(whole.string("outcome") == "success")
        #expect(whole.object("result")?.int("amount") == 3000, "no amount: the whole authorisation")
        #expect(whole.string("authorisation") == "pa-2")
    }

    @Test("lane_busy while a pre-auth waits for its card; an abort then does not end it")
    func busyAndNotAbortable() throws {
        var behaviour = LaneBehaviour()
        behaviour.cardPresentment = .manual
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)
        ])
        try harness.send(#"{"id":"pa-1","lane":"lane-1","action":"pre_auth","amount":500}"#)
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .cardPresentment, timeout: .seconds(5)))
        let busy = try harness.call(#"{"id":"cap-1","lane":"lane-1","action":"capture_pre_auth"}"#)
        #expect(busy.object("error")?.string("code") == "lane_busy")
        let abort = try harness.call(#"{"id":"ab-1","lane":"lane-1","action":"abort"}"#)
        #expect(abort.string("outcome") == "nothing_to_abort")
        harness.simulator.release(lane: "lane-1")
        #expect(try harness.reply(to: "pa-1").string("outcome") == "success")
    }

    @Test("a pre-auth answer naming another clientTransactionId is an orphan; its own ends it, amount checked")
    func ownAnswerOnly() throws {
        let context = try Context()
        defer { context.terminate() }
        let relay = try HostileRelay(context: context)
        let harness = try BridgeHarness.driving(relay, as: "driven", platform: .ios)
        try harness.send(#"{"id":"pa-1","lane":"driven","action":"pre_auth","amount":100}"#)
        let open = try relay.awaitOpen()
        #expect(open.url.contains("action=pre_auth&amount=100&clientTransactionId=pa-1&"))
        try relay.send(.opened(ref: Array(open.ref.utf8)))
        try relay.send(
            .callback(
                url: Array(
                    "interapp-callback://result?status=success&action=pre_auth&clientTransactionId=other&amount=100"
                        .utf8)))
        let orphan = try harness.event("driven.pre_auth.orphan")
        #expect(orphan.object("result")?.string("clientTransactionId") == "other")
        try relay.send(
            .callback(
                url: Array(
                    "interapp-callback://result?status=success&action=pre_auth&clientTransactionId=pa-1&amount=90"
                        .utf8)))
        let reply = try harness.reply(to: "pa-1")
        #expect(reply.string("outcome") == "success")
        #expect(reply.object("amountMismatch")?.int("requested") == 100, "checked as a sale's amount is")
        #expect(reply.object("amountMismatch")?.int("approved") == 90)
    }
}

@Suite("Pre-auth and capture across a restart (v1.1)")
struct PreAuthRestartTests {
    @Test("a capture after a restart of the bridge still names its authorisation, found in the journal")
    func linkAfterRestart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pre-auth-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let lanes = [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)]
        // The first harness stays alive to the end (its end removes the folder); only its bridge stops.
        let first = try BridgeHarness(lanes: lanes, journalFolder: folder)
        let preAuth = try first.call(#"{"id":"pa-1","lane":"lane-1","action":"pre_auth","amount":8000}"#)
        let orderCode = try #require(preAuth.object("result")?.string("orderCode"))
        first.bridge.stop()

        let again = try BridgeHarness(lanes: lanes, journalFolder: folder)
        // The new simulated app never made that pre-auth: the test answers as the app that did.
        again.simulator.setBehaviour(LaneBehaviour(fault: .neverAnswer), lane: "lane-1")
        try again.send(
            #"{"id":"cap-1","lane":"lane-1","action":"capture_pre_auth","orderCode":"\#(orderCode)","amount":6240}"#)
        #expect(again.simulator.waitForURLs(lane: "lane-1", count: 1, timeout: .seconds(5)))
        again.simulator.injectCallback(
            lane: "lane-1",
            url: "interapp-callback://result?status=success&message=Transaction successful.&action=capture_pre_auth"
                + "&amount=6240&orderCode=\(orderCode)")
        let capture = try again.reply(to: "cap-1")
        #expect(capture.string("outcome") == "success")
        #expect(capture.string("authorisation") == "pa-1")
        let status = try again.call(#"{"id":"st","action":"status","ref":"cap-1"}"#)
        #expect(status.object("result")?.object("reply")?.string("authorisation") == "pa-1")
        withExtendedLifetime(first) {}
    }
}
