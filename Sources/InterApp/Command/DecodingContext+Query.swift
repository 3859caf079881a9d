extension DecodingContext {
    /// Decodes a bridge query: `status` takes `ref`; `resolve` takes `ref`, `outcome` (`success` or
    /// `failure`) and an optional `note`; none takes `lane`, since queries never reach a terminal.
    ///
    /// `timeoutMs` is accepted (and checked) on queries too, so a client may send it on every command; it has
    /// no effect since queries are answered at once.
    func decodeQuery(id: String, query: Query) throws(Rejection) -> Command {
        var timeoutMs: Int? = nil
        var ref: String? = nil
        var outcome: Outcome? = nil
        var note: String? = nil
        let takesRef = query == .status || query == .resolve
        let allowed =
            ["id", "action", "timeoutMs"] + (takesRef ? ["ref"] : []) + (query == .resolve ? ["outcome", "note"] : [])
        for (key, value) in object.pairs {
            switch key {
            case "id", "action":
                continue
            case "timeoutMs":
                timeoutMs = try readTimeout(value)
            case "ref" where takesRef:
                guard case .string(let text) = value, Self.isValidId(text) else {
                    throw reject(
                        .invalidValue,
                        "ref must be the id of an earlier command, \(Self.idRule); got "
                            + (value.stringValue != nil ? "an invalid id" : value.typeDescription))
                }
                ref = text
            case "outcome" where query == .resolve:
                guard case .string(let text) = value, let read = Outcome(rawValue: text),
                    read == .success || read == .failure
                else {
                    throw reject(
                        .invalidValue,
                        "outcome must be \"success\" or \"failure\": what the terminal or Viva's back office shows")
                }
                outcome = read
            case "note" where query == .resolve:
                guard case .string(let text) = value, (1...Self.maxNoteBytes).contains(text.utf8.count) else {
                    throw reject(
                        .invalidValue,
                        "note must be a string of 1 to \(Self.maxNoteBytes) bytes (how the outcome was found out)")
                }
                note = text
            case "lane":
                throw reject(
                    .unknownField, "lane is not a key of \(query.rawValue): queries never reach a terminal; remove it")
            default:
                throw unknownKey(key, of: query.rawValue, allowed: allowed)
            }
        }
        let body: Command.Body
        switch query {
        case .status:
            guard let ref else {
                throw reject(.missingField, "ref is required for status: the id of the command to report on")
            }
            body = .status(ref: ref)
        case .lanes:
            body = .lanes
        case .ping:
            body = .ping
        case .resolve:
            guard let ref else {
                throw reject(.missingField, "ref is required for resolve: the id of the unknown command to close")
            }
            guard let outcome else {
                throw reject(.missingField, "outcome is required for resolve: \"success\" or \"failure\"")
            }
            body = .resolve(ref: ref, outcome: outcome, note: note)
        }
        return Command(
            id: id, action: query.rawValue, body: body, timeoutMs: timeoutMs,
            fingerprint: Self.fingerprint(of: object))
    }

    /// The longest `note` of a `resolve`, in UTF-8 bytes.
    static let maxNoteBytes = 1000
}
