import BridgeClient
import InterApp

/// A reply in words, and the exit status its outcome gives `vivabridge send`.
enum SendReport {
    /// The exit status when no reply came in time.
    static let noReplyExitCode: Int32 = 5

    /// The exit status of a reply's outcome (see `vivabridge send --help`).
    static func exitCode(outcome: String?) -> Int32 {
        switch outcome {
        case "success", "nothing_to_abort": 0
        case "failure", "aborted", "superseded": 1
        case "rejected": 2
        case "undeliverable": 3
        default: 4  // unknown, and anything this version does not know: the payment may have happened
        }
    }

    /// What each outcome means, for the line under the headline.
    static func meaning(_ outcome: String) -> String? {
        switch outcome {
        case "failure": "the terminal app reported a failure"
        case "aborted": "the sale was stopped by an abort"
        case "nothing_to_abort": "there was nothing to abort"
        case "superseded": "the abort came too late: the transaction went on (see ref)"
        case "rejected": "the bridge refused the command; it never reached a terminal"
        case "undeliverable": "it never reached the terminal app; safe to retry under a new id"
        case "unknown":
            "the deadline passed with no callback: the payment may have happened. Ask later with "
                + "`vivabridge send status --ref ID`; a late result is also published as an event"
        default: nil
        }
    }

    /// The result fields shown first, in this order, with their labels.
    static let highlighted: [(key: String, label: String)] = [
        ("rrn", "rrn"), ("referenceNumber", "referenceNumber"), ("authorisationCode", "authorisationCode"),
        ("orderCode", "orderCode"), ("transactionDate", "transactionDate"), ("batchName", "batchName"),
        ("batchId", "batchId"), ("clientTransactionId", "clientTransactionId"),
    ]

    /// The readable account of `reply`, read as the contract gives it (a reply that breaks the contract is
    /// shown as received, with what is wrong).
    static func render(_ reply: JSONObject, width: Int = 100) -> String {
        let typed: TypedReply
        do {
            typed = try TypedReply(reply)
        } catch {
            return
                "a reply that does not follow the contract (\(error)):\n  \(JSONValue.object(reply).serializedString)\n"
        }
        switch typed.action {
        case "status": return renderStatus(typed)
        case "lanes": return renderLanes(typed, width: width)
        case "ping": return renderPing(typed)
        default: return renderCommand(typed, indent: "")
        }
    }

    /// A terminal command's reply: headline, meaning, message, error, the key result fields.
    static func renderCommand(_ reply: TypedReply, indent: String) -> String {
        let id = reply.id ?? "(no id)"
        let action = reply.action ?? "command"
        let outcome = reply.outcome.rawValue
        let late = reply.late ? " (late)" : ""
        var lines = ["\(action) \(id)\(reply.lane.map { " on \($0)" } ?? ""): \(outcome)\(late)"]
        var fields: [(String, String)] = []
        if let meaning = meaning(outcome) { fields.append(("means", meaning)) }
        if let message = reply.message { fields.append(("message", message)) }
        if let error = reply.error { fields.append(("error", "\(error.code): \(error.message)")) }
        if let ref = reply.ref { fields.append(("ref", ref)) }
        if let platforms = reply.error?.platforms {
            fields.append(("offered on", platforms.map(\.rawValue).joined(separator: ", ")))
        }
        if let authorisation = reply.authorisation { fields.append(("captured", authorisation)) }
        if let refund = reply.refund, let mark = reply.action.flatMap(TerminalAction.init(rawValue:))?.spec.refund,
            refund.kind.rawValue == mark.key
        {
            let amount = refund.amount.map { " of \(SendAmount.euros($0))" } ?? ""
            fields.append(("refund", "\(mark.key.uppercased()): \(mark.note)\(amount)"))
        }
        var hidden: [String] = []
        if let result = reply.result.map(TypedReply.CallbackResult.init(fields:)) {
            var shown: Set<String> = []
            if let amount = result.amount {
                fields.append(("amount", "\(SendAmount.euros(amount)) (\(amount) cents)"))
                shown.insert("amount")
            }
            if let tip = result.tipAmount, tip != 0 {
                fields.append(("tip", "\(SendAmount.euros(tip)) (\(tip) cents)"))
            }
            shown.insert("tipAmount")
            let card = [result.cardType, result.accountNumber].compactMap { $0 }.filter { !$0.isEmpty }
            if !card.isEmpty {
                let method = result.verificationMethod.map { " (\($0))" } ?? ""
                fields.append(("card", card.joined(separator: " ") + method))
            }
            shown.formUnion(["cardType", "accountNumber", "verificationMethod", "action"])
            for (key, label) in highlighted {
                guard let value = result.fields[key], let text = text(value), !text.isEmpty else { continue }
                fields.append((label, text))
                shown.insert(key)
            }
            if reply.action == TerminalAction.report.rawValue {
                // A report's result is the terminal's own totals: every field is the answer.
                for (key, value) in result.fields.pairs where !shown.contains(key) {
                    guard let text = text(value), !text.isEmpty else { continue }
                    fields.append((key, text))
                    shown.insert(key)
                }
            }
            hidden = result.fields.pairs.filter { !shown.contains($0.key) && $0.value != .string("") }.map(\.key)
        }
        let labelWidth = fields.map(\.0.count).max() ?? 0
        for (label, value) in fields {
            lines.append("  " + label + String(repeating: " ", count: labelWidth - label.count + 2) + value)
        }
        if !hidden.isEmpty { lines.append("  (and \(hidden.joined(separator: ", ")): --json shows every field)") }
        return lines.map { indent + $0 }.joined(separator: "\n") + "\n"
    }

    static func renderStatus(_ reply: TypedReply) -> String {
        guard let status = try? reply.status() else { return renderCommand(reply, indent: "") }
        if status.state == "not_found" {
            return "status of \(status.ref): no command with this id is known to the bridge\n"
        }
        var line = "status of \(status.ref): \(status.state)"
        if let action = status.action { line += ", \(action)" }
        if let lane = status.lane { line += " on \(lane)" }
        if let outcome = status.outcome { line += ": \(outcome.rawValue)" }
        var text = line + "\n"
        if let stored = status.reply {
            text += "  its reply:\n" + renderCommand(stored, indent: "  ")
        } else if status.state != "final" {
            text += "  not final yet: its reply comes when the terminal answers or its deadline passes\n"
        }
        return text
    }

    static func renderLanes(_ reply: TypedReply, width: Int) -> String {
        let state = WatchState().applying(snapshot: reply)
        guard reply.outcome == .success else { return renderCommand(reply, indent: "") }
        if state.lanes.isEmpty { return "the bridge has no lanes\n" }
        // The watch table's columns, less the last result (a snapshot has none); the last event is the last
        // callback here.
        let rows = state.lanes.map { lane in
            let cells = WatchTable.cells(lane)
            return [cells[0], lane.platform ?? "?", cells[1], cells[2], cells[4], cells[5]]
        }
        let headers = ["LANE", "PLATFORM", "LINK", "IN FLIGHT", "BATCH", "LAST CALLBACK"]
        return WatchTable.table([headers] + rows, width: width, shrinkable: [(3, 9), (4, 6), (0, 6)])
            .joined(separator: "\n") + "\n"
    }

    static func renderPing(_ reply: TypedReply) -> String {
        guard let ping = try? reply.ping() else { return renderCommand(reply, indent: "") }
        return "pong: bridge \(ping.version), \(ping.lanes) lanes, \(ping.outstanding) commands outstanding\n"
    }

    private static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number(let number): number.literal
        case .bool(let flag): String(flag)
        case .null: nil
        default: value.serializedString
        }
    }
}
