extension DecodingContext {
    /// Decodes a bridge query: `status` takes `ref`; none takes `lane`, since queries never reach a terminal.
    ///
    /// `timeoutMs` is accepted (and checked) on queries too, so a client may send it on every command; it has
    /// no effect since queries are answered at once.
    func decodeQuery(id: String, query: Query) throws(Rejection) -> Command {
        var timeoutMs: Int? = nil
        var ref: String? = nil
        let allowed = ["id", "action", "timeoutMs"] + (query == .status ? ["ref"] : [])
        for (key, value) in object.pairs {
            switch key {
            case "id", "action":
                continue
            case "timeoutMs":
                timeoutMs = try readTimeout(value)
            case "ref" where query == .status:
                guard case .string(let text) = value, Self.isValidId(text) else {
                    throw reject(
                        .invalidValue,
                        "ref must be the id of an earlier command, \(Self.idRule); got "
                            + (value.stringValue != nil ? "an invalid id" : value.typeDescription))
                }
                ref = text
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
        }
        return Command(
            id: id, action: query.rawValue, body: body, timeoutMs: timeoutMs,
            fingerprint: Self.fingerprint(of: object))
    }
}
