import InterApp
import Testing

/// `JSONValue`'s string writer, which scans eight bytes at a time: the same text as escaping byte by byte,
/// wherever an escape falls in the word.
@Suite("JSON string writing")
struct JSONStringWritingTests {
    /// The text JSON asks for, one byte at a time: the reference.
    static func reference(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u00" + String(repeating: "0", count: 2 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    @Test("every byte below 0x80, and a character of each UTF-8 length, at every place of a 1 to 40 byte string")
    func everyPlace() throws {
        var specials: [Character] = (0..<0x80).map { Character(Unicode.Scalar(UInt8($0))) }
        specials += ["é", "€", "😀", "\u{7F}"]
        for length in 1...40 {
            for special in specials {
                for place in [0, length / 2, length - 1] {
                    var characters = Array(repeating: Character("a"), count: length)
                    characters[place] = special
                    let text = String(characters)
                    let written = String(decoding: JSONValue.string(text).serialized(), as: UTF8.self)
                    #expect(written == Self.reference(text), "\(Array(text.utf8))")
                    #expect(try JSONValue.parse(Array(written.utf8)) == .string(text))
                }
            }
        }
    }

    @Test("long clean text, and escapes at the ends of words")
    func longAndBridged() throws {
        let clean = String(repeating: "abcdefgh", count: 64)
        let mixed = clean + "\"" + clean + "\\\u{01}" + clean
        for text in [clean, mixed, "", "\u{1F}\u{1F}\u{1F}\u{1F}\u{1F}\u{1F}\u{1F}\"\\"] {
            let written = String(decoding: JSONValue.string(text).serialized(), as: UTF8.self)
            #expect(written == Self.reference(text))
        }
    }
}
