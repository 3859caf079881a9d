extension DecodingContext {
    /// Keys of the bridge itself, valid with every terminal action.
    static let bridgeKeys = ["id", "lane", "action", "timeoutMs"]

    /// Decodes a terminal action against its entry in the action table.
    func decodeTerminal(id: String, action: TerminalAction) throws(Rejection) -> Command {
        let spec = action.spec
        var lane: String? = nil
        var timeoutMs: Int? = nil
        var parameters: [Parameter] = []
        parameters.reserveCapacity(object.count)
        for (key, value) in object.pairs {
            switch key {
            case "id", "action":
                continue
            case "lane":
                lane = try readLane(value)
            case "timeoutMs":
                timeoutMs = try readTimeout(value)
            default:
                guard let parameter = spec.parameter(named: key) else {
                    throw unknownKey(
                        key, of: action.rawValue, allowed: Self.bridgeKeys + spec.parameters.map(\.name))
                }
                parameters.append(Parameter(key, try urlText(of: value, for: parameter)))
            }
        }
        guard let lane else {
            throw reject(.missingField, "lane is required for \(action.rawValue): the id of a configured lane")
        }
        for parameter in spec.parameters where parameter.isRequired && !object.contains(parameter.name) {
            throw reject(
                .missingField,
                "\(parameter.name) is required for \(action.rawValue): \(parameter.kind.expectation(unit: parameter.unit))"
            )
        }
        for rule in spec.rules {
            try check(rule, action: action)
        }
        if spec.fillsClientTransactionId && !object.contains("clientTransactionId") {
            parameters.append(Parameter("clientTransactionId", id))
        }
        let command = TerminalCommand(lane: lane, action: action, parameters: parameters)
        return Command(
            id: id, action: action.rawValue, body: .terminal(command), timeoutMs: timeoutMs,
            fingerprint: Self.fingerprint(of: object))
    }
}
