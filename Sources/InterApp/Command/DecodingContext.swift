/// The state of decoding one command: the object and what could be read of it for a rejection's echo.
struct DecodingContext {
    /// Keys the bridge sets itself from the lane's configuration.
    static let reservedKeys = ["merchantKey", "appId", "callback", "protocol"]
    /// What a valid `id` looks like, for messages.
    static let idRule = "a string of 1 to 128 printable ASCII characters without spaces"

    let object: JSONObject
    let echoId: String?
    let echoLane: String?
    let echoAction: String?

    init(object: JSONObject) {
        self.object = object
        echoId = object["id"]?.stringValue.flatMap { Self.isValidId($0) ? $0 : nil }
        echoLane = object["lane"]?.stringValue.flatMap { Self.isValidLane($0) ? $0 : nil }
        echoAction = object["action"]?.stringValue.flatMap { !$0.isEmpty && $0.utf8.count <= 64 ? $0 : nil }
    }

    /// A rejection carrying the echo.
    func reject(_ code: RejectionCode, _ message: String) -> Rejection {
        Rejection(code, message, id: echoId, lane: echoLane, action: echoAction)
    }

    /// Whether `id` is 1 to 128 printable ASCII characters with no space.
    static func isValidId(_ id: String) -> Bool {
        let utf8 = id.utf8
        return (1...128).contains(utf8.count) && utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// Whether `lane` is a plausible lane id: 1 to 128 bytes.
    static func isValidLane(_ lane: String) -> Bool {
        (1...128).contains(lane.utf8.count)
    }

    func readId() throws(Rejection) -> String {
        guard let value = object["id"] else {
            throw reject(.missingField, "id is required: \(Self.idRule)")
        }
        guard case .string(let id) = value else {
            throw reject(.invalidValue, "id must be \(Self.idRule); got \(value.typeDescription)")
        }
        guard Self.isValidId(id) else {
            let problem =
                id.isEmpty
                ? "it is empty"
                : id.utf8.count > 128
                    ? "it is \(id.utf8.count) bytes long"
                    : "it holds a space, a control or a non-ASCII character"
            throw reject(.invalidValue, "id must be \(Self.idRule); \(problem)")
        }
        return id
    }

    func readAction() throws(Rejection) -> String {
        guard let value = object["action"] else {
            throw reject(.missingField, "action is required: one of \(Self.actionList)")
        }
        guard case .string(let action) = value else {
            throw reject(
                .invalidValue, "action must be a string, one of \(Self.actionList); got \(value.typeDescription)")
        }
        return action
    }

    func checkReservedKeys() throws(Rejection) {
        for key in Self.reservedKeys where object.contains(key) {
            throw reject(
                .reservedField,
                "\(key) is set by the bridge from the lane's configuration; remove it from the command")
        }
    }

    static var actionList: String {
        (TerminalAction.allCases.map(\.rawValue) + Query.allCases.map(\.rawValue)).joined(separator: ", ")
    }

    static func unknownActionMessage(_ action: String) -> String {
        let candidates = TerminalAction.allCases.map(\.rawValue) + Query.allCases.map(\.rawValue)
        var message = "unknown action \(Quote.short(action))"
        if let suggestion = Suggestion.closest(to: action, among: candidates) {
            message += "; did you mean \(suggestion)?"
        } else {
            message += "."
        }
        return message + " The actions are: \(actionList)"
    }

    /// Reads `timeoutMs`: an integer from 1000 to 600000.
    func readTimeout(_ value: JSONValue) throws(Rejection) -> Int {
        let rule = "timeoutMs must be a JSON integer from 1000 to 600000 (milliseconds)"
        guard case .number(let number) = value else {
            throw reject(.invalidValue, "\(rule); got \(value.typeDescription)")
        }
        guard let milliseconds = number.intValue, (1000...600_000).contains(milliseconds) else {
            throw reject(.invalidValue, "\(rule); got \(Quote.short(number.literal, limit: 24))")
        }
        return milliseconds
    }

    /// Reads `lane`: a string of 1 to 128 bytes.
    func readLane(_ value: JSONValue) throws(Rejection) -> String {
        guard case .string(let lane) = value, Self.isValidLane(lane) else {
            throw reject(
                .invalidValue,
                "lane must be a lane id from the configuration, a string of 1 to 128 bytes; got "
                    + (value.stringValue.map { $0.isEmpty ? "an empty string" : "a longer string" }
                        ?? value.typeDescription))
        }
        return lane
    }

    /// The unknown-key rejection, with a suggestion when the key looks like a misspelling.
    func unknownKey(_ key: String, of action: String, allowed: [String]) -> Rejection {
        if let suggestion = Suggestion.closest(to: key, among: allowed) {
            return reject(
                .unknownField, "\(Quote.short(key)) is not a key of \(action); did you mean \(suggestion)?")
        }
        return reject(
            .unknownField,
            "\(Quote.short(key)) is not a key of \(action); \(action) takes: \(allowed.joined(separator: ", "))")
    }
}
