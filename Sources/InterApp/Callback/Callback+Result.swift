extension Callback {
    /// Fields whose values are integers in results: amounts in cents and installment counts.
    public static let integerFields: Set<String> = [
        "amount", "tipAmount", "ISV_amount", "installments", "preferredInstallments",
    ]

    /// The callback's fields as the reply's `result`, typed.
    ///
    /// Every field but `status` and `message`, in order; the first of repeated names wins. ``integerFields``
    /// become JSON integers when their text is an optionally signed decimal integer that fits (`" 10"` → 10);
    /// everything else is the string received (dates verbatim, `+03:00` included; empty strings kept).
    public var result: JSONObject {
        var pairs: [(key: String, value: JSONValue)] = []
        pairs.reserveCapacity(fields.count)
        var seen: UInt64 = 0  // a tiny Bloom filter on (length, first byte): full comparisons only on a hit
        for field in fields {
            let utf8 = field.name.utf8
            let bit: UInt64 = 1 << ((UInt64(utf8.count) &* 31 &+ UInt64(utf8.first ?? 0)) & 63)
            if seen & bit != 0 {
                if field.name == "status" || field.name == "message" { continue }
                if pairs.contains(where: { $0.key == field.name }) { continue }
            } else {
                seen |= bit
                if field.name == "status" || field.name == "message" { continue }
            }
            pairs.append((field.name, Callback.typedValue(name: field.name, text: field.value)))
        }
        return JSONObject(uniquePairs: pairs)
    }

    /// An integer for ``integerFields`` holding a decimal integer, else the string.
    static func typedValue(name: String, text: String) -> JSONValue {
        guard isIntegerField(name), let integer = decimalInteger(text) else { return .string(text) }
        return .number(JSONNumber(integer))
    }

    /// Whether `name` is one of ``integerFields``, without hashing.
    @inline(__always)
    static func isIntegerField(_ name: String) -> Bool {
        switch name.utf8.count {
        case 6: name == "amount"
        case 9: name == "tipAmount"
        case 10: name == "ISV_amount"
        case 12: name == "installments"
        case 21: name == "preferredInstallments"
        default: false
        }
    }

    /// `-?[0-9]+` that fits an `Int`, else `nil` (no `+`, no spaces, no fraction).
    static func decimalInteger(_ text: String) -> Int? {
        let utf8 = text.utf8
        guard let first = utf8.first else { return nil }
        let digits = first == UInt8(ascii: "-") ? utf8.dropFirst() : utf8[...]
        guard !digits.isEmpty, digits.allSatisfy(ASCII.isDigit) else { return nil }
        return Int(text)
    }

    /// The reply's typed view: `{"outcome": …, "reason": …, "message": …, "action": …, "result": {…}}` with
    /// ``baseOutcome`` (and ``failureReason`` for a failure).
    public var summary: JSONObject {
        var summary: JSONObject = ["outcome": .string(baseOutcome.rawValue)]
        if let reason = failureReason { summary["reason"] = .string(reason.rawValue) }
        summary["message"] = .string(message)
        summary["action"] = .string(actionName)
        summary["result"] = .object(result)
        return summary
    }
}
