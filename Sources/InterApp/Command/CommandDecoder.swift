/// Turns a command frame from the store middleware into a valid ``Command``, or a ``Rejection`` saying why not.
///
/// The rules are contract v1, section 2, with the action table (``ActionSpec``) for each terminal action.
/// Checks run in this order, so that the first problem reported is the most basic: size, JSON, `id`, `action`,
/// reserved keys, then each key in the command's order (unknown keys, types, ranges), then required keys, then
/// cross-field rules.
public struct CommandDecoder: Sendable {
    /// The largest frame accepted, in bytes; larger ones are `too_large`.
    public var maxBytes: Int

    /// Creates a decoder accepting frames of at most `maxBytes` bytes.
    public init(maxBytes: Int = 65536) {
        self.maxBytes = maxBytes
    }

    /// Decodes one frame: one JSON object in UTF-8.
    /// - Throws: ``Rejection`` with the code and a message naming the key and the rule, and the `id`, `lane`
    ///   and `action` that could be read, for the reply.
    public func decode(_ frame: [UInt8]) throws(Rejection) -> Command {
        guard frame.count <= maxBytes else {
            throw Rejection(.tooLarge, "the command is \(frame.count) bytes; the limit is \(maxBytes) bytes")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(frame)
        } catch {
            throw Rejection(.invalidJSON, error.message)
        }
        guard case .object(let object) = value else {
            throw Rejection(.invalidJSON, "a command must be a JSON object; got \(value.typeDescription)")
        }
        return try decode(object)
    }

    /// Decodes a command already parsed as a JSON object; see ``decode(_:)-(_:[UInt8])``.
    public func decode(_ object: JSONObject) throws(Rejection) -> Command {
        let context = DecodingContext(object: object)
        let id = try context.readId()
        let action = try context.readAction()
        try context.checkReservedKeys()
        if let terminalAction = TerminalAction(rawValue: action) {
            return try context.decodeTerminal(id: id, action: terminalAction)
        }
        if let query = Query(rawValue: action) {
            return try context.decodeQuery(id: id, query: query)
        }
        throw context.reject(.unknownAction, DecodingContext.unknownActionMessage(action))
    }
}

/// The bridge queries, answered at once and never sent to a terminal.
enum Query: String, CaseIterable {
    case status, lanes, ping, resolve
}
