extension DecodingContext {
    /// Canonical compact JSON of the command: keys sorted by UTF-8 bytes, integers in plain decimal, secrets
    /// replaced by `"***"`.
    static func fingerprint(of object: JSONObject) -> String {
        var pairs: [(key: String, value: JSONValue)] = []
        pairs.reserveCapacity(object.count)
        for (key, value) in object.pairs {
            pairs.append((key, Masking.isSecret(key) ? .string(Masking.redacted) : canonical(value)))
        }
        let bytes = JSONValue.object(JSONObject(uniquePairs: pairs)).serialized(sortedKeys: true)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case .number(let number):
            if let integer = number.intValue { return .number(JSONNumber(integer)) }
            return value
        case .array(let elements):
            return .array(elements.map(canonical))
        case .object(let object):
            return .object(JSONObject(uniquePairs: object.pairs.map { ($0.key, canonical($0.value)) }))
        default:
            return value
        }
    }
}
