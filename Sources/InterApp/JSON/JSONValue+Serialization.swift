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
        // Native strings are contiguous: scan them eight bytes at a time and copy the clean run in bulk.
        let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes in
            let clean = cleanPrefix(bytes)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<clean]))
            guard clean < bytes.count else { return true }
            for byte in bytes[clean...] { appendEscaping(byte, to: &out) }
            return true
        }
        if copied == nil {
            for byte in text.utf8 { appendEscaping(byte, to: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// How many leading bytes of `bytes` need no escape: eight at a time, then one at a time.
    @inline(__always)
    private static func cleanPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var index = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if wordNeedsEscape(word) { break }
                index += 8
            }
        }
        while index < bytes.count, !needsEscape(bytes[index]) { index += 1 }
        return index
    }

    /// Whether one of the eight bytes of `word` is a control character, `"` or `\`: "has a byte below n" and
    /// "has a zero byte" (after an XOR with the byte looked for), the word-at-a-time tests of Sean Anderson's
    /// *Bit Twiddling Hacks*, exact as yes-or-no answers.
    @inline(__always)
    private static func wordNeedsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let belowSpace = (word &- ones &* 0x20) & ~word & highs != 0
        return belowSpace || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Appends `byte`, escaped when JSON asks for it.
    @inline(__always)
    private static func appendEscaping(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
        case 0x0A: out.append(contentsOf: #"\n"#.utf8)
        case 0x0D: out.append(contentsOf: #"\r"#.utf8)
        case 0x09: out.append(contentsOf: #"\t"#.utf8)
        case 0x08: out.append(contentsOf: #"\b"#.utf8)
        case 0x0C: out.append(contentsOf: #"\f"#.utf8)
        case 0..<0x20:
            let digits: StaticString = "0123456789abcdef"
            out.append(contentsOf: #"\u00"#.utf8)
            out.append(digits.utf8Start[Int(byte >> 4)])
            out.append(digits.utf8Start[Int(byte & 0xF)])
        default: out.append(byte)
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text.
    public var description: String { serializedString }
}
