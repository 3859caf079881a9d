/// Small ASCII helpers on UTF-8 bytes.
enum ASCII {
    /// `byte` lower-cased if it is an ASCII capital letter.
    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// Whether `lhs` and `rhs` are equal ignoring ASCII case.
    static func equalsIgnoringCase(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && lhs.utf8.elementsEqual(rhs.utf8) { lower($0) == lower($1) }
    }

    /// Whether `bytes` equal the ASCII text `lowercase` ignoring case (`lowercase` must be lower-case).
    @inline(__always)
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let text = lowercase.utf8Start
        for index in 0..<bytes.count where lower(bytes[index]) != text[index] { return false }
        return true
    }

    /// Whether `byte` is an ASCII digit.
    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10
    }

    /// Whether `byte` is an ASCII hexadecimal digit.
    @inline(__always)
    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || lower(byte) &- 0x61 < 6
    }

    /// Whether `byte` is whitespace trimmed from callback fields: space, tab, CR or LF.
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
