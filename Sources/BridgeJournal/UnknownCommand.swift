import BridgeCore
import Foundation
import InterApp

/// A command whose outcome is still `unknown`: the payment may or may not have happened, and someone
/// must find out (at the terminal, or in Viva's back office) before the day is reconciled.
public struct UnknownCommand: Sendable, Equatable {
    public var id: String
    public var lane: String?
    public var action: String
    /// The amount asked, in cents.
    public var amount: Int?
    /// When the bridge accepted it, in milliseconds since 1970.
    public var createdMs: Int64
    /// When it was answered `unknown` (or last looked up), in milliseconds since 1970.
    public var updatedMs: Int64
    /// The reply's last message (why it is unknown), or ``noOutcomeYet``.
    public var message: String?

    package init(
        id: String, lane: String?, action: String, amount: Int?, createdMs: Int64, updatedMs: Int64, message: String?
    ) {
        self.id = id
        self.lane = lane
        self.action = action
        self.amount = amount
        self.createdMs = createdMs
        self.updatedMs = updatedMs
        self.message = message
    }

    /// The message of a command with no outcome at all: in flight when the journal was read, or left
    /// without one (it is never sent again; its repeat is answered `unknown`).
    public static let noOutcomeYet = "no outcome yet: in flight when read, or left without one"

    /// One line for a person: created time, id, lane, action, amount in euros, message.
    public var textLine: String {
        let euros = amount.map { String(format: "%d.%02d", $0 / 100, $0 % 100) } ?? "-"
        return [Timestamp.iso8601(ms: createdMs), id, lane ?? "-", action, euros, message ?? ""]
            .joined(separator: "  ")
    }

    /// One JSON object (one line, no line end).
    public var jsonLine: String {
        let object: JSONObject = [
            "id": .string(id), "lane": lane.map(JSONValue.string) ?? .null, "action": .string(action),
            "amount": amount.map { .number(JSONNumber($0)) } ?? .null,
            "created": .string(Timestamp.iso8601(ms: createdMs)), "updated": .string(Timestamp.iso8601(ms: updatedMs)),
            "message": message.map(JSONValue.string) ?? .null,
        ]
        return JSONValue.object(object).serializedString
    }
}
