import BridgeClient
import InterApp
import TerminalSimulator

/// One step of the demo: what it shows, and how it ended.
struct DemoStep {
    var title: String
    var expected: String
    /// What happened (filled in when the step ran).
    var got = "(not run)"
    var passed = false
    var ran = false
}

/// The demo's scripted session. Each step drives the simulated terminals by hand (a phase marked manual lasts
/// until the script releases it), so the story is the same on every run and takes a few seconds.
struct DemoScript {
    let stage: DemoStage
    let session: DemoSession
    let print: (String) -> Void

    /// The steps, in order, with what each should end as.
    static let plan: [DemoStep] = [
        DemoStep(title: "three sales at once", expected: "success x3"),
        DemoStep(title: "a declined sale", expected: "failure"),
        DemoStep(title: "abort before the card is read", expected: "sale aborted, abort success"),
        DemoStep(title: "abort after the card is read", expected: "sale success, abort superseded"),
        DemoStep(title: "batch open and close", expected: "success x2, batch.opened, batch.closed"),
        DemoStep(title: "a pre-auth and its capture", expected: "success x2, the capture names the pre-auth"),
        DemoStep(title: "unknown, then a late result", expected: "unknown, late_result success, status success"),
    ]

    /// Runs step `index` (0-based) and says what happened: `(got, passed)`.
    func run(step index: Int) throws -> (String, Bool) {
        switch index {
        case 0: try threeSales()
        case 1: try decline()
        case 2: try abortBeforeCard()
        case 3: try abortAfterCard()
        case 4: try batch()
        case 5: try preAuthAndCapture()
        default: try unknownThenLate()
        }
    }

    private func sale(_ id: String, lane: String, cents: Int, timeoutMs: Int? = nil) -> JSONObject {
        var command: JSONObject = ["id": .string(id), "lane": .string(lane), "action": "sale"]
        command["amount"] = .number(JSONNumber(cents))
        if let timeoutMs { command["timeoutMs"] = .number(JSONNumber(timeoutMs)) }
        return command
    }

    private func abort(_ id: String, lane: String) -> JSONObject {
        ["id": .string(id), "lane": .string(lane), "action": "abort"]
    }

    /// Prints a line of the account, after the events that arrived so far.
    private func say(_ line: String) {
        try? session.drain()
        print(line)
    }

    private func outcome(_ reply: TypedReply) -> String { reply.outcome.rawValue }

    private func waitFor(_ lane: String, _ phase: TransactionPhase) throws {
        guard stage.simulator.waitForPhase(lane: lane, phase, timeout: .seconds(10)) else {
            throw DemoError("\(lane)'s terminal never reached \(phase)")
        }
    }

    // MARK: - The steps

    private func threeSales() throws -> (String, Bool) {
        say("  Each lane's cardholder takes their time (the script presents the cards), so the three sales")
        say("  are in flight together: the bridge runs one transaction per lane, and the lanes side by side.")
        let sales = [("demo-sale-1", "lane-1", 1200), ("demo-sale-2", "lane-2", 850), ("demo-sale-3", "lane-3", 2500)]
        for (_, lane, _) in sales { stage.behave(lane, card: .manual, host: .milliseconds(0)) }
        for (id, lane, cents) in sales { try session.send(sale(id, lane: lane, cents: cents)) }
        for (id, lane, _) in sales {
            try waitFor(lane, .cardPresentment)
            try session.event(.command(lane: lane, action: "sale", .delivered), id: id)
        }
        try session.send(["id": "demo-lanes-1", "action": "lanes"], note: "  (what is in flight now?)")
        let snapshot = try session.reply(to: "demo-lanes-1", quiet: true)
        let table = SendReport.renderLanes(snapshot, width: 100)
        say(table.split(separator: "\n").map { "     | " + $0 }.joined(separator: "\n"))
        say("  The three cards are presented.")
        for (_, lane, _) in sales { stage.simulator.release(lane: lane) }
        let outcomes = try sales.map { try outcome(session.reply(to: $0.0)) }
        return (outcomes.joined(separator: ", "), outcomes.allSatisfy { $0 == "success" })
    }

    private func decline() throws -> (String, Bool) {
        say("  The simulator's host declines amounts ending in 51 (52: cardholder cancels, 53: host error).")
        stage.behave("lane-2", card: .milliseconds(0), host: .milliseconds(0))
        try session.send(sale("demo-decline", lane: "lane-2", cents: 1251))
        let got = outcome(try session.reply(to: "demo-decline"))
        return (got, got == "failure")
    }

    private func abortBeforeCard() throws -> (String, Bool) {
        say("  The cardholder has not presented a card yet: the terminal app can stop the sale.")
        say("  (The bridge then waits abortGraceMs, \(DemoStage.abortGraceMs) ms here, 5 s by default, in case the")
        say("  sale's own callback still comes.)")
        stage.behave("lane-1", card: .manual, host: .milliseconds(0))
        try session.send(sale("demo-abort-early", lane: "lane-1", cents: 3000))
        try waitFor("lane-1", .cardPresentment)
        try session.send(abort("demo-abort-1", lane: "lane-1"))
        let abortOutcome = outcome(try session.reply(to: "demo-abort-1"))
        let saleOutcome = outcome(try session.reply(to: "demo-abort-early"))
        return ("sale \(saleOutcome), abort \(abortOutcome)", saleOutcome == "aborted" && abortOutcome == "success")
    }

    private func abortAfterCard() throws -> (String, Bool) {
        say("  The card is read and the host is deciding (Android lane): too late to stop. The sale ends as")
        say("  the host says, and the abort is superseded, naming the sale in its ref.")
        stage.behave("lane-3", card: .milliseconds(0), host: .manual)
        let before = stage.simulator.openedURLCount(lane: "lane-3")
        try session.send(sale("demo-abort-late", lane: "lane-3", cents: 4000))
        try waitFor("lane-3", .host)
        try session.send(abort("demo-abort-2", lane: "lane-3"))
        guard stage.simulator.waitForURLs(lane: "lane-3", count: before + 2, timeout: .seconds(10)) else {
            throw DemoError("the abort never reached lane-3's terminal")
        }
        try session.event(.command(lane: "lane-3", action: "abort", .delivered), id: "demo-abort-2")
        say("  The host approves.")
        stage.simulator.release(lane: "lane-3")
        let saleOutcome = outcome(try session.reply(to: "demo-abort-late"))
        let abortReply = try session.reply(to: "demo-abort-2")
        let abortOutcome = outcome(abortReply)
        let passed =
            saleOutcome == "success" && abortOutcome == "superseded"
            && abortReply.ref == "demo-abort-late"
        return ("sale \(saleOutcome), abort \(abortOutcome)", passed)
    }

    private func batch() throws -> (String, Bool) {
        say("  Batches group a lane's transactions for the day; the bridge publishes when one opens or closes.")
        var open: JSONObject = ["id": "demo-batch-open", "lane": "lane-2", "action": "batch", "command": "open"]
        open["batchName"] = "demo-morning"
        try session.send(open)
        let opened = outcome(try session.reply(to: "demo-batch-open"))
        let openedEvent = try session.event(.batch(lane: "lane-2", .opened))
        try session.send(["id": "demo-batch-close", "lane": "lane-2", "action": "batch", "command": "close"])
        let closed = outcome(try session.reply(to: "demo-batch-close"))
        let closedEvent = try session.event(.batch(lane: "lane-2", .closed))
        guard case .batch(_, _, let openedName, _, _, _) = openedEvent.kind,
            case .batch(_, _, _, _, let closedReason, _) = closedEvent.kind
        else { return ("\(opened), \(closed), no batch events", false) }
        let passed =
            opened == "success" && closed == "success" && openedName == "demo-morning" && closedReason == "command"
        return ("\(opened), \(closed), batch.opened, batch.closed", passed)
    }

    private func preAuthAndCapture() throws -> (String, Bool) {
        say("  A hotel or a fuel pump holds an amount first (pre_auth), then takes what is due (capture_pre_auth);")
        say("  the capture's reply names the pre-auth it took.")
        stage.behave("lane-3", card: .milliseconds(0), host: .milliseconds(0))
        var hold: JSONObject = ["id": "demo-pre-auth", "lane": "lane-3", "action": "pre_auth"]
        hold["amount"] = .number(JSONNumber(8000))
        try session.send(hold)
        let held = try session.reply(to: "demo-pre-auth")
        guard let orderCode = held.callbackResult()?.orderCode else {
            return ("pre_auth \(outcome(held)), no order code", false)
        }
        var take: JSONObject = ["id": "demo-capture", "lane": "lane-3", "action": "capture_pre_auth"]
        take["amount"] = .number(JSONNumber(6240))
        take["orderCode"] = .string(orderCode)
        try session.send(take)
        let captured = try session.reply(to: "demo-capture")
        let named = captured.authorisation
        say("  <- the capture names its authorisation: \(named ?? "none")")
        let passed = outcome(held) == "success" && outcome(captured) == "success" && named == "demo-pre-auth"
        return ("\(outcome(held)), \(outcome(captured)), authorisation \(named ?? "none")", passed)
    }

    private func unknownThenLate() throws -> (String, Bool) {
        say("  The host is slow and the sale's deadline (timeoutMs 1000) passes: the reply is unknown, never")
        say("  failure, since the payment may still happen. When the callback comes after all, the bridge")
        say("  publishes late_result and status returns it.")
        stage.behave("lane-1", card: .milliseconds(0), host: .manual)
        try session.send(sale("demo-late", lane: "lane-1", cents: 999, timeoutMs: 1000))
        try waitFor("lane-1", .host)
        let first = outcome(try session.reply(to: "demo-late"))
        say("  The host answers at last.")
        stage.simulator.release(lane: "lane-1")
        let late = try session.event(.command(lane: "lane-1", action: "sale", .lateResult), id: "demo-late")
        guard case .end(_, let lateReply) = late.kind else { return ("\(first), late_result unread", false) }
        let lateOutcome = lateReply.outcome.rawValue
        try session.send(["id": "demo-status", "action": "status", "ref": "demo-late"])
        let status = try session.reply(to: "demo-status", quiet: true)
        let answer = try status.status()
        let stored = answer?.outcome?.rawValue ?? answer?.state ?? "?"
        let lateMark = answer?.reply?.late == true ? " (late)" : ""
        say("  <- status of demo-late: \(answer?.state ?? "?"), \(stored)\(lateMark)")
        let passed = first == "unknown" && lateOutcome == "success" && stored == "success"
        return ("\(first), late_result \(lateOutcome), status \(stored)", passed)
    }
}
