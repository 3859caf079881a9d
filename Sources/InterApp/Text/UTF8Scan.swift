/// UTF-8 checks on raw bytes, shared by the JSON parser and the callback parser.
enum UTF8Scan {
    /// The length of the valid multi-byte UTF-8 sequence starting at `index`, or 0 if it is not one.
    ///
    /// Rejects overlong forms, UTF-16 surrogates and code points above U+10FFFF, as RFC 3629 requires.
    @inline(__always)
    static func multibyteLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let end = bytes.count
        @inline(__always) func continuation(_ at: Int) -> Bool { at < end && bytes[at] & 0xC0 == 0x80 }
        @inline(__always) func second(in range: ClosedRange<UInt8>) -> Bool {
            index + 1 < end && range.contains(bytes[index + 1])
        }
        switch bytes[index] {
        case 0xC2...0xDF:
            return continuation(index + 1) ? 2 : 0
        case 0xE0:
            return second(in: 0xA0...0xBF) && continuation(index + 2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(index + 1) && continuation(index + 2) ? 3 : 0
        case 0xED:
            return second(in: 0x80...0x9F) && continuation(index + 2) ? 3 : 0
        case 0xF0:
            return second(in: 0x90...0xBF) && continuation(index + 2) && continuation(index + 3) ? 4 : 0
        case 0xF1...0xF3:
            return continuation(index + 1) && continuation(index + 2) && continuation(index + 3) ? 4 : 0
        case 0xF4:
            return second(in: 0x80...0x8F) && continuation(index + 2) && continuation(index + 3) ? 4 : 0
        default:
            return 0
        }
    }

    /// The offset of the first byte that does not start valid UTF-8, or `nil` if all of `bytes` is valid.
    static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let end = bytes.count
        if let base = bytes.baseAddress {
            // Eight ASCII bytes at a time.
            while end - index >= 8
                && UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
            }
        }
        while index < end {
            if bytes[index] < 0x80 {
                index += 1
                continue
            }
            let length = multibyteLength(bytes, at: index)
            if length == 0 { return index }
            index += length
        }
        return nil
    }

    /// Appends the UTF-8 encoding of `scalar` to `out`.
    @inline(__always)
    static func append(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | (scalar >> 6)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | (scalar >> 12)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (scalar >> 18)))
            out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    /// A short human description of `byte` for error messages: `'x'` when printable ASCII, else `byte 0x1F`.
    static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
    }
}
