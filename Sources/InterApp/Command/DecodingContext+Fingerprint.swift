extension DecodingContext {
    /// Canonical compact JSON of the command: keys sorted by UTF-8 bytes, integers in plain decimal, secrets
    /// replaced by `"***"`.
    ///
    /// Written straight to bytes, with no canonical copy of the object built first.
    static func fingerprint(of object: JSONObject) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        writeCanonical(object, into: &out, redactingSecrets: true)
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes `object` with its keys sorted by their UTF-8 bytes, at every depth; secrets (top level only) as
    /// `"***"`.
    private static func writeCanonical(_ object: JSONObject, into out: inout [UInt8], redactingSecrets: Bool) {
        let pairs = object.pairs
        var order = Array(pairs.indices)
        order.sort { precedes(pairs[$0].key, pairs[$1].key) }
        out.append(UInt8(ascii: "{"))
        for (position, index) in order.enumerated() {
            if position > 0 { out.append(UInt8(ascii: ",")) }
            let (key, value) = pairs[index]
            JSONValue.writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
            if redactingSecrets && Masking.isSecret(key) {
                JSONValue.writeString(Masking.redacted, into: &out)
            } else {
                writeCanonical(value, into: &out)
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Whether `lhs` sorts before `rhs` by their UTF-8 bytes (`lhs.utf8.lexicographicallyPrecedes(rhs.utf8)`),
    /// compared in their contiguous storage when they have it (native strings do).
    private static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                for index in 0..<min(left.count, right.count) where left[index] != right[index] {
                    return left[index] < right[index]
                }
                return left.count < right.count
            }
        }
        return (compared ?? nil) ?? lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    /// Writes `value` with integers in plain decimal (`-0` as `0`) and objects' keys sorted.
    private static func writeCanonical(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .number(let number):
            if let integer = number.intValue {
                out.append(contentsOf: String(integer).utf8)
            } else {
                value.write(into: &out)
            }
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                writeCanonical(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            writeCanonical(object, into: &out, redactingSecrets: false)
        default:
            value.write(into: &out)
        }
    }
}
