extension DecodingContext {
    /// Checks one cross-field rule of the action table against the command.
    func check(_ rule: ParameterRule, action: TerminalAction) throws(Rejection) {
        switch rule {
        case .notAbove(let name, let limit):
            guard let value = object[name]?.intValue, let maximum = object[limit]?.intValue else { return }
            guard value <= maximum else {
                throw reject(.invalidValue, "\(name) must be at most \(limit) (\(maximum)); got \(value)")
            }
        case .requiredWhenTrue(let name, let flag):
            if object[flag]?.boolValue == true && !object.contains(name) {
                throw reject(.missingField, "\(name) is required when \(flag) is true")
            }
        case .onlyWhenTrue(let name, let flag):
            if object.contains(name) && object[flag]?.boolValue != true {
                throw reject(.invalidValue, "\(name) is allowed only with \(flag): true")
            }
        case .onlyWhen(let name, let key, let expected):
            if object.contains(name) && object[key]?.stringValue != expected {
                throw reject(.invalidValue, "\(name) is allowed only with \(key): \"\(expected)\"")
            }
        case .zeroWhenTrue(let name, let flag):
            if let value = object[name]?.intValue, value > 0, object[flag]?.boolValue == true {
                throw reject(
                    .invalidCombination,
                    "\(name) above 0 cannot go with \(flag): true (the terminal app refuses a tip with installments)")
            }
        case .prefixRequires(let prefix, let names):
            guard let trigger = object.pairs.first(where: { $0.key.hasPrefix(prefix) })?.key else { return }
            let missing = names.filter { !object.contains($0) }
            guard missing.isEmpty else {
                throw reject(
                    .missingField,
                    "\(prefix) parameters go together: \(trigger) needs \(names.joined(separator: ", ")); "
                        + "missing: \(missing.joined(separator: ", "))")
            }
        }
    }
}
