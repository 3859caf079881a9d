import BridgeCore
import BridgeJournal
import InterApp
import VivaCloud

extension DayReconciliation {
    /// The report for a person at closing: a summary line, then each difference with what to do about it.
    public var text: String {
        var out = [
            "Reconciliation of \(day) (UTC) with Viva's records: \(matched) matched, \(differences.count) "
                + (differences.count == 1 ? "difference" : "differences")
        ]
        if differences.isEmpty { out.append("Every sale and pre-authorisation of the day agrees with Viva.") }
        for line in differences {
            out.append("")
            out.append("  \(Self.title(line.kind))")
            if let command = line.command {
                out.append(
                    "    bridge: \(command.action) \(command.id) on \(command.lane ?? "-"), \(Self.euros(command.amount)), "
                        + "\(command.outcome ?? "no outcome"), at \(Timestamp.iso8601(ms: command.createdMs))")
            }
            if let transaction = line.transaction {
                out.append(
                    "    Viva:   transaction \(transaction.transactionId), status \(transaction.statusId.rawValue), "
                        + "\(Self.euros(transaction.amountCents)), order \(transaction.orderCode?.value ?? "-"), "
                        + "at \(transaction.insDate ?? "-") (local)")
            } else {
                out.append("    Viva:   no record with this clientTransactionId")
            }
            out.append("    what to do: \(Self.advice(line.kind))")
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// The report for scripts: one JSON object, `day`, `matched`, `differences` and every line.
    public var json: JSONObject {
        var object = JSONObject()
        object["day"] = .string(day)
        object["matched"] = .number(JSONNumber(matched))
        object["differences"] = .number(JSONNumber(differences.count))
        object["lines"] = .array(lines.map { .object(Self.json($0)) })
        return object
    }

    private static func json(_ line: Line) -> JSONObject {
        var object = JSONObject()
        object["kind"] = .string(line.kind.rawValue)
        if let command = line.command {
            var bridge = JSONObject()
            bridge["id"] = .string(command.id)
            bridge["lane"] = command.lane.map(JSONValue.string) ?? .null
            bridge["action"] = .string(command.action)
            bridge["clientTransactionId"] = command.clientTransactionId.map(JSONValue.string) ?? .null
            bridge["amount"] = command.amount.map { .number(JSONNumber($0)) } ?? .null
            bridge["outcome"] = command.outcome.map(JSONValue.string) ?? .null
            bridge["created"] = .string(Timestamp.iso8601(ms: command.createdMs))
            object["bridge"] = .object(bridge)
        } else {
            object["bridge"] = .null
        }
        object["viva"] = line.transaction.map { .object(VivaVerdict.describe($0)) } ?? .null
        return object
    }

    private static func title(_ kind: Kind) -> String {
        switch kind {
        case .matched: "Matched"
        case .missingAtViva: "Missing at Viva: the bridge has it, Viva has no record"
        case .missingInJournal: "Missing in the journal: Viva has it, the bridge does not"
        case .outcomeDiffers: "Outcome differs"
        case .amountDiffers: "Amount differs"
        }
    }

    private static func advice(_ kind: Kind) -> String {
        switch kind {
        case .matched: "nothing"
        case .missingAtViva:
            "look it up in Viva's back office; a success Viva never recorded was not paid"
        case .missingInJournal:
            "a sale made on the terminal by hand, or by a till that is not this bridge's: check the till's records"
        case .outcomeDiffers:
            "Viva's status wins for the money: a failure Viva shows F means the customer paid (refund them if they paid again); "
                + "an unknown is settled with `vivabridge send resolve`"
        case .amountDiffers: "check the receipt: the customer paid Viva's amount"
        }
    }

    private static func euros(_ cents: Int?) -> String {
        guard let cents else { return "amount unknown" }
        let sign = cents < 0 ? "-" : ""
        let value = abs(cents)
        return "\(sign)\(value / 100).\(value % 100 < 10 ? "0" : "")\(value % 100) EUR"
    }
}
