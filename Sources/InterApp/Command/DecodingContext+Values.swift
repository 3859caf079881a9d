extension DecodingContext {
    /// Checks `value` against `parameter`'s kind and returns its text for the URL.
    ///
    /// Messages name the parameter and the rule; they quote numbers but never strings, so no secret can leak
    /// into a reply.
    func urlText(of value: JSONValue, for parameter: ParameterSpec) throws(Rejection) -> String {
        let name = parameter.name
        var rule: String { "\(name) must be \(parameter.kind.expectation(unit: parameter.unit))" }
        if value.isNull {
            throw reject(.invalidValue, "\(rule); got null: omit the key instead of sending null")
        }
        switch parameter.kind {
        case .integer(let range):
            guard case .number(let number) = value else {
                if case .string(let text) = value, Int(text) != nil {
                    throw reject(.invalidValue, "\(rule), not a string: send \(text.prefix(12)) without quotes")
                }
                throw reject(.invalidValue, "\(rule); got \(value.typeDescription)")
            }
            var literal: String { Quote.short(number.literal, limit: 24) }
            guard number.isInteger else {
                throw reject(.invalidValue, "\(rule), without fraction or exponent; got \(literal)")
            }
            guard let integer = number.intValue, range.contains(integer) else {
                throw reject(.invalidValue, "\(rule); got \(literal)")
            }
            return String(integer)
        case .flag:
            guard case .bool(let flag) = value else {
                throw reject(.invalidValue, "\(rule); got \(value.typeDescription)")
            }
            return flag ? "true" : "false"
        case .text(let maxLength):
            let text = try string(value, rule: rule)
            let length = text.utf16.count
            guard length <= maxLength else {
                throw reject(.invalidValue, "\(rule); got one of \(length) characters")
            }
            return text
        case .digits(let maxLength):
            if case .number = value {
                throw reject(.invalidValue, "\(rule), as a JSON string (\"012345\"), not a number")
            }
            let text = try string(value, rule: rule)
            guard text.utf8.count <= maxLength, text.utf8.allSatisfy(ASCII.isDigit) else {
                throw reject(.invalidValue, "\(rule); got a string that is not")
            }
            return text
        case .fixedDigits(let count):
            if case .number = value {
                throw reject(.invalidValue, "\(rule), as a JSON string, not a number")
            }
            let text = try string(value, rule: rule)
            guard text.utf8.count == count, text.utf8.allSatisfy(ASCII.isDigit),
                text.utf8.contains(where: { $0 != 0x30 })
            else {
                throw reject(.invalidValue, "\(rule); got a string of \(text.utf8.count) characters that is not")
            }
            return text
        case .date:
            let text = try string(value, rule: rule)
            guard Self.isDate(text) else {
                throw reject(.invalidValue, "\(rule); got a string that is not")
            }
            return text
        case .oneOf(let choices):
            let text = try string(value, rule: rule)
            guard choices.contains(text) else {
                throw reject(.invalidValue, "\(rule); got \(Quote.short(text, limit: 24))")
            }
            return text
        case .uuid:
            let text = try string(value, rule: rule)
            guard Self.isUUID(text) else {
                throw reject(.invalidValue, "\(rule); got a string that is not")
            }
            return text
        }
    }

    /// The string in `value`, non-empty.
    private func string(_ value: JSONValue, rule: @autoclosure () -> String) throws(Rejection) -> String {
        guard case .string(let text) = value else {
            throw reject(.invalidValue, "\(rule()); got \(value.typeDescription)")
        }
        guard !text.isEmpty else {
            throw reject(.invalidValue, "\(rule()); got an empty string: omit the key instead")
        }
        return text
    }

    /// `YYYY-MM-DD` with a plausible month and day, optionally followed by a time: printable ASCII, ≤ 40 bytes.
    static func isDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 10 && bytes.count <= 40, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return false
        }
        for position in [0, 1, 2, 3, 5, 6, 8, 9] where !ASCII.isDigit(bytes[position]) { return false }
        guard bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-") else { return false }
        let month = Int(bytes[5] - 0x30) * 10 + Int(bytes[6] - 0x30)
        let day = Int(bytes[8] - 0x30) * 10 + Int(bytes[9] - 0x30)
        guard (1...12).contains(month) && (1...31).contains(day) else { return false }
        return bytes.count == 10 || bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " ")
    }

    /// `8-4-4-4-12` hexadecimal digits, either case.
    static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (position, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(position) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else if !ASCII.isHexDigit(byte) {
                return false
            }
        }
        return true
    }
}
