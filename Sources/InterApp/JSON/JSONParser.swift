/// A strict RFC 8259 parser over UTF-8 bytes.
///
/// Rejects everything the RFC does not allow (trailing commas, leading zeros, unescaped control characters,
/// lone surrogates, invalid UTF-8, trailing data) and, beyond the RFC, duplicate object keys and nesting deeper
/// than ``maxDepth``: for commands that move money an ambiguous object is an error, not a guess.
struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    static let maxDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    private var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses the whole input as exactly one JSON value, with optional surrounding whitespace.
    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            throw JSONParseError("a byte order mark is not allowed; send plain UTF-8", at: 0)
        }
        skipWhitespace()
        guard index < bytes.count else {
            throw JSONParseError("the input is empty; expected a JSON value", at: index)
        }
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else {
            throw JSONParseError("unexpected \(UTF8Scan.describe(bytes[index])) after the JSON value", at: index)
        }
        return value
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else {
            throw JSONParseError("unexpected end of input; expected a value", at: index)
        }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            throw JSONParseError("unexpected \(UTF8Scan.describe(bytes[index])); expected a value", at: index)
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        guard index + count <= bytes.count else {
            throw JSONParseError("unexpected end of input in '\(literal)'", at: index)
        }
        for offset in 0..<count where bytes[index + offset] != start[offset] {
            throw JSONParseError("invalid literal; expected '\(literal)'", at: index)
        }
        index += count
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        let length = JSONNumber.scanLength(bytes, from: start)
        guard length > 0 else {
            var probe = start
            if bytes[probe] == UInt8(ascii: "-") { probe += 1 }
            if probe + 1 < bytes.count && bytes[probe] == UInt8(ascii: "0")
                && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[probe + 1])
            {
                throw JSONParseError("numbers may not have leading zeros", at: start)
            }
            throw JSONParseError("invalid number", at: start)
        }
        index += length
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return JSONNumber(uncheckedLiteral: text)
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > JSONParser.maxDepth {
            throw JSONParseError("arrays and objects nest deeper than \(JSONParser.maxDepth) levels", at: index)
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
                throw JSONParseError("trailing comma before ']'", at: index)
            }
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else {
                throw JSONParseError("unexpected end of input in an array; expected ',' or ']'", at: index)
            }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default:
                throw JSONParseError(
                    "unexpected \(UTF8Scan.describe(bytes[index])) in an array; expected ',' or ']'", at: index)
            }
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1  // {
        var pairs: [(key: String, value: JSONValue)] = []
        pairs.reserveCapacity(8)  // a command's keys, mostly: no growth from 1 to 2 to 4 to 8
        var seen: Set<String>? = nil
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(JSONObject(uniquePairs: pairs))
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else {
                throw JSONParseError("unexpected end of input in an object; expected a key", at: index)
            }
            guard bytes[index] == UInt8(ascii: "\"") else {
                if bytes[index] == UInt8(ascii: "}") { throw JSONParseError("trailing comma before '}'", at: index) }
                throw JSONParseError(
                    "unexpected \(UTF8Scan.describe(bytes[index])) in an object; expected a quoted key", at: index)
            }
            let keyOffset = index
            let key = try parseString()
            if seen == nil && pairs.count >= 16 { seen = Set(pairs.map(\.key)) }
            let duplicate = seen.map { $0.contains(key) } ?? pairs.contains { $0.key == key }
            if duplicate {
                throw JSONParseError("duplicate key \(Quote.short(key)); each key may appear once", at: keyOffset)
            }
            seen?.insert(key)
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw JSONParseError("expected ':' after the key \(Quote.short(key))", at: index)
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            pairs.append((key, value))
            skipWhitespace()
            guard index < bytes.count else {
                throw JSONParseError("unexpected end of input in an object; expected ',' or '}'", at: index)
            }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(JSONObject(uniquePairs: pairs))
            default:
                throw JSONParseError(
                    "unexpected \(UTF8Scan.describe(bytes[index])) in an object; expected ',' or '}'", at: index)
            }
        }
    }

    /// Parses a string starting at its opening quote.
    private mutating func parseString() throws(JSONParseError) -> String {
        let start = index + 1
        var cursor = start
        let end = bytes.count
        // Fast path: plain printable ASCII up to the closing quote.
        while cursor < end {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") {
                index = cursor + 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<cursor]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            cursor += 1
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<cursor]))
        while true {
            guard cursor < end else {
                throw JSONParseError("unterminated string", at: start - 1)
            }
            let byte = bytes[cursor]
            switch byte {
            case UInt8(ascii: "\""):
                index = cursor + 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                cursor = try parseEscape(at: cursor)
            case 0..<0x20:
                throw JSONParseError(
                    "control character \(UTF8Scan.describe(byte)) in a string must be escaped", at: cursor)
            case 0x20..<0x80:
                scratch.append(byte)
                cursor += 1
            default:
                let length = UTF8Scan.multibyteLength(bytes, at: cursor)
                guard length > 0 else { throw JSONParseError("invalid UTF-8 in a string", at: cursor) }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[cursor..<cursor + length]))
                cursor += length
            }
        }
    }

    /// Decodes the escape at `at` (a backslash) into `scratch`; returns the offset after it.
    private mutating func parseEscape(at start: Int) throws(JSONParseError) -> Int {
        guard start + 1 < bytes.count else { throw JSONParseError("unterminated escape", at: start) }
        switch bytes[start + 1] {
        case UInt8(ascii: "\""): scratch.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): scratch.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): scratch.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try hex4(at: start + 2)
            switch unit {
            case 0xD800...0xDBFF:
                guard start + 7 < bytes.count, bytes[start + 6] == UInt8(ascii: "\\"),
                    bytes[start + 7] == UInt8(ascii: "u")
                else { throw JSONParseError("lone high surrogate \\u\(hex(unit))", at: start) }
                let low = try hex4(at: start + 8)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw JSONParseError("high surrogate \\u\(hex(unit)) not followed by a low surrogate", at: start)
                }
                let scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                UTF8Scan.append(scalar, to: &scratch)
                return start + 12
            case 0xDC00...0xDFFF:
                throw JSONParseError("lone low surrogate \\u\(hex(unit))", at: start)
            default:
                UTF8Scan.append(unit, to: &scratch)
                return start + 6
            }
        default:
            throw JSONParseError("invalid escape '\\\(UTF8Scan.describe(bytes[start + 1]))'", at: start)
        }
        return start + 2
    }

    private func hex4(at start: Int) throws(JSONParseError) -> UInt32 {
        guard start + 4 <= bytes.count else { throw JSONParseError("truncated \\u escape", at: start - 2) }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[start + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONParseError("invalid \\u escape: expected 4 hex digits", at: start - 2)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private func hex(_ unit: UInt32) -> String {
        String(unit, radix: 16, uppercase: true)
    }
}
