extension JSONValue {
    /// The compact JSON text of this value as UTF-8 bytes: no whitespace, numbers as their literal.
    ///
    /// Strings escape `"`, `\` and control characters (as `\n`, `\t`, ... or `\u00XX`); everything else, `/` and
    /// non-ASCII included, is written as is.
    /// - Parameter sortedKeys: sort object keys by their UTF-8 bytes (a canonical form) instead of keeping
    ///   their order.
    public func serialized(sortedKeys: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)  // a reply with its result (150-600 B) in one allocation, not three
        write(into: &out, sortedKeys: sortedKeys)
        return out
    }

    /// The compact JSON text of this value, keys in their order.
    public var serializedString: String {
        String(decoding: serialized(), as: UTF8.self)
    }

    /// Appends the compact JSON text of this value to `out`.
    public func write(into out: inout [UInt8], sortedKeys: Bool = false) {
        switch self {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let flag):
            out.append(contentsOf: flag ? "true".utf8 : "false".utf8)
        case .number(let number):
            out.append(contentsOf: number.literal.utf8)
        case .string(let text):
            JSONValue.writeString(text, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                element.write(into: &out, sortedKeys: sortedKeys)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            var pairs = object.pairs
            if sortedKeys {
                pairs.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            }
            out.append(UInt8(ascii: "{"))
            for (position, pair) in pairs.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(pair.key, into: &out)
                out.append(UInt8(ascii: ":"))
                pair.value.write(into: &out, sortedKeys: sortedKeys)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `text` as a quoted, escaped JSON string.
    static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        @inline(__always) func needsEscape(_ byte: UInt8) -> Bool {
            byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
        }
        // Native strings are contiguous: scan and copy their bytes in bulk, not through the UTF8View's iterator.
        let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.contains(where: needsEscape) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        let utf8 = text.utf8
        switch copied {
        case true?:
            break
        case nil where !utf8.contains(where: needsEscape):
            out.append(contentsOf: utf8)
        default:
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
                case 0x0A: out.append(contentsOf: #"\n"#.utf8)
                case 0x0D: out.append(contentsOf: #"\r"#.utf8)
                case 0x09: out.append(contentsOf: #"\t"#.utf8)
                case 0x08: out.append(contentsOf: #"\b"#.utf8)
                case 0x0C: out.append(contentsOf: #"\f"#.utf8)
                case 0..<0x20:
                    let digits: [UInt8] = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: #"\u00"#.utf8)
                    out.append(digits[Int(byte >> 4)])
                    out.append(digits[Int(byte & 0xF)])
                default: out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text.
    public var description: String { serializedString }
}
