import InterApp

extension SendReport {
    /// A `resolve` answer in words: the command closed, the outcome it now has and the one it had, who
    /// closed it, when and why, then its new reply; a refusal as any refused command.
    static func renderResolve(_ answer: JSONObject) -> String {
        guard answer["outcome"]?.stringValue == "success", let result = answer["result"]?.objectValue else {
            return renderCommand(answer, indent: "")
        }
        let ref = result["ref"]?.stringValue ?? "?"
        let outcome = result["outcome"]?.stringValue ?? "?"
        let stored = result["reply"]?.objectValue
        let earlier = stored?["earlier"]?.objectValue?["outcome"]?.stringValue ?? "unknown"
        var text = "resolve of \(ref): closed as \(outcome) (it was \(earlier))\n"
        let resolved = stored?["resolved"]?.objectValue
        var fields: [(String, String)] = []
        if let by = resolved?["by"]?.stringValue {
            fields.append(("by", by))
        } else {
            fields.append(("by", "(no client name: the bridge has no security)"))
        }
        if let at = resolved?["at"]?.stringValue { fields.append(("at", at)) }
        if let note = resolved?["note"]?.stringValue { fields.append(("note", note)) }
        let labelWidth = fields.map(\.0.count).max() ?? 0
        for (label, value) in fields {
            text += "  " + label + String(repeating: " ", count: labelWidth - label.count + 2) + value + "\n"
        }
        if let stored {
            text += "  its reply now (status, a repeat of its id and journal export say the same):\n"
            text += renderCommand(stored, indent: "    ")
        }
        return text
    }
}
