/// RFC 3986 percent-encoding and a lenient, single-pass decoding, on UTF-8 bytes.
package enum PercentEncoding {
    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Whether `byte` is an RFC 3986 unreserved character: `A-Z a-z 0-9 - . _ ~`.
    @inline(__always)
    static func isUnreserved(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10 || byte == 0x2D || byte == 0x2E || byte == 0x5F
            || byte == 0x7E
    }

    /// Whether every byte of `text` is RFC 3986 unreserved: such a text reads the same encoded or not.
    package static func isUnreserved(_ text: String) -> Bool { text.utf8.allSatisfy(isUnreserved) }

    /// `text` with its escapes decoded once, as a callback's values are (``decodedString(_:scratch:)``).
    package static func decoded(_ text: String) -> String {
        var text = text
        var scratch: [UInt8] = []
        return text.withUTF8 { decodedString($0, scratch: &scratch) }
    }

    /// Appends `text` to `out`, every byte but the unreserved ones as `%XX` (upper-case hex).
    @inline(__always)
    static func append(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    /// The length of `text` once percent-encoded.
    @inline(__always)
    static func encodedCount(_ text: String) -> Int {
        if let count = text.utf8.withContiguousStorageIfAvailable({ bytes -> Int in
            var count = bytes.count
            for byte in bytes where !isUnreserved(byte) { count += 2 }
            return count
        }) {
            return count
        }
        var count = 0
        for byte in text.utf8 { count += isUnreserved(byte) ? 1 : 3 }
        return count
    }

    /// Writes `text` percent-encoded into `buffer` at `offset`, advancing `offset`; the buffer must have room
    /// for ``encodedCount(_:)`` bytes.
    @inline(__always)
    static func write(_ text: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: inout Int) {
        @inline(__always) func put(_ byte: UInt8, _ position: inout Int) {
            if isUnreserved(byte) {
                buffer[position] = byte
                position += 1
            } else {
                buffer[position] = UInt8(ascii: "%")
                buffer[position + 1] = hexDigits[Int(byte >> 4)]
                buffer[position + 2] = hexDigits[Int(byte & 0x0F)]
                position += 3
            }
        }
        var position = offset
        let done: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes { put(byte, &position) }
            return true
        }
        if done == nil {
            for byte in text.utf8 { put(byte, &position) }
        }
        offset = position
    }

    /// `text` percent-encoded.
    static func encode(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3)
        append(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        if byte &- 0x30 < 10 { return byte &- 0x30 }
        let lower = byte | 0x20
        if lower &- 0x61 < 6 { return lower &- 0x61 &+ 10 }
        return nil
    }

    /// Appends `bytes` to `out` with each valid `%XX` decoded once; an invalid escape stays as it is and `+`
    /// stays a plus (this is not form decoding).
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var index = 0
        let end = bytes.count
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") && index + 2 < end,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte)
                index += 1
            }
        }
    }

    /// The text of `bytes` with escapes decoded once, or the raw text if the decoded bytes are not UTF-8
    /// (a `%E9` meant as Latin-1 stays `%E9` rather than becoming a replacement character).
    static func decodedString(_ bytes: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8]) -> String {
        scratch.removeAll(keepingCapacity: true)
        decode(bytes, into: &scratch)
        let valid = scratch.withUnsafeBufferPointer { UTF8Scan.firstInvalidOffset($0) == nil }
        return valid ? String(decoding: scratch, as: UTF8.self) : String(decoding: bytes, as: UTF8.self)
    }
}
