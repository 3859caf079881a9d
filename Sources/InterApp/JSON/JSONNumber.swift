/// A JSON number, kept as the literal text that was received or written.
///
/// Keeping the literal means `1200`, `1200.0` and `1.2e3` stay distinguishable, which the command rules need:
/// amounts must be JSON integers, never numbers with a fraction or an exponent.
public struct JSONNumber: Sendable, Equatable, Hashable {
    /// The number exactly as written in JSON, for example `1200`, `-0.5` or `1e3`.
    public let literal: String

    /// Creates the number that writes as the decimal text of `value`.
    public init(_ value: Int) {
        literal = String(value)
    }

    /// Creates a number from JSON number text, or returns `nil` if `literal` is not a valid RFC 8259 number.
    public init?(literal: String) {
        var text = literal
        let valid = text.withUTF8 { JSONNumber.scanLength($0, from: 0) == $0.count && !$0.isEmpty }
        guard valid else { return nil }
        self.literal = literal
    }

    /// Creates a number from text the parser already checked.
    init(uncheckedLiteral: String) {
        literal = uncheckedLiteral
    }

    /// Whether the literal has neither a fraction nor an exponent (`12`, `-3`; not `12.0`, not `1e3`).
    public var isInteger: Bool {
        !literal.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// The value as an `Int` when the literal is an integer that fits; `nil` otherwise.
    public var intValue: Int? {
        guard isInteger else { return nil }
        return Int(literal)
    }

    /// The value as a `Double` (approximate for long literals).
    public var doubleValue: Double? {
        Double(literal)
    }

    /// Returns how many bytes from `start` form a valid JSON number, or 0 if none does.
    ///
    /// Grammar: `-? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    static func scanLength(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        let end = bytes.count
        func isDigit(_ at: Int) -> Bool { at < end && bytes[at] >= 0x30 && bytes[at] <= 0x39 }
        if index < end && bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { return 0 }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { return 0 }  // leading zero
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < end && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { return 0 }
            while isDigit(index) { index += 1 }
        }
        if index < end && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < end && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            guard isDigit(index) else { return 0 }
            while isDigit(index) { index += 1 }
        }
        return index - start
    }
}

extension JSONNumber: CustomStringConvertible {
    /// The literal text.
    public var description: String { literal }
}
