import BridgeClient
import InterApp

extension SendReport {
    /// A `resolve` answer in words: the command closed, the outcome it now has and the one it had, who
    /// closed it, when and why, then its new reply; a refusal as any refused command.
    static func renderResolve(_ answer: JSONObject) -> String {
        let typed: TypedReply
        do {
            typed = try TypedReply(answer)
        } catch {
            return render(answer)
        }
        guard let resolve = try? typed.resolve() else { return renderCommand(typed, indent: "") }
        let stored = resolve.reply
        let earlier = stored.earlier?.outcome?.rawValue ?? "unknown"
        var text = "resolve of \(resolve.ref): closed as \(resolve.outcome.rawValue) (it was \(earlier))\n"
        var fields: [(String, String)] = []
        if let by = stored.resolved?.by {
            fields.append(("by", by))
        } else {
            fields.append(("by", "(no client name: the bridge has no security)"))
        }
        if let at = stored.resolved?.at { fields.append(("at", at)) }
        if let note = stored.resolved?.note { fields.append(("note", note)) }
        let labelWidth = fields.map(\.0.count).max() ?? 0
        for (label, value) in fields {
            text += "  " + label + String(repeating: " ", count: labelWidth - label.count + 2) + value + "\n"
        }
        text += "  its reply now (status, a repeat of its id and journal export say the same):\n"
        text += renderCommand(stored, indent: "    ")
        return text
    }
}
