import InterApp
import Testing

@Suite("JSON parser")
struct JSONParserTests {
    @Test("parses every kind of value")
    func parsesValues() throws {
        let value = try JSONValue.parse(#" {"a": [1, -2.5e3, true, false, null, "x\ny"], "b": {}} "#)
        let expected: JSONValue = [
            "a": [1, .number(JSONNumber(literal: "-2.5e3")!), true, false, nil, "x\ny"], "b": .object(JSONObject()),
        ]
        #expect(value == expected)
    }

    @Test(
        "numbers keep their literal text",
        arguments: [
            "0", "-0", "1200", "12.0", "1.2e3", "1E+3", "-0.5", "1e-7",
            "123456789012345678901234567890",
        ])
    func numbersKeepLiterals(literal: String) throws {
        let value = try JSONValue.parse(literal)
        #expect(value.numberValue?.literal == literal)
        #expect(value.serializedString == literal)
    }

    @Test("integer detection")
    func integers() throws {
        #expect(try JSONValue.parse("1200").intValue == 1200)
        #expect(try JSONValue.parse("-3").intValue == -3)
        #expect(try JSONValue.parse("12.0").intValue == nil)
        #expect(try JSONValue.parse("1.2e3").intValue == nil)
        #expect(try JSONValue.parse("1e3").numberValue?.isInteger == false)
        #expect(try JSONValue.parse("99999999999999999999").intValue == nil)
        #expect(try JSONValue.parse("99999999999999999999").numberValue?.isInteger == true)
    }

    @Test("objects keep key order")
    func keyOrder() throws {
        let object = try #require(try JSONValue.parse(#"{"z":1,"a":2,"m":3}"#).objectValue)
        #expect(object.keys == ["z", "a", "m"])
        #expect(JSONValue.object(object).serializedString == #"{"z":1,"a":2,"m":3}"#)
        #expect(
            String(decoding: JSONValue.object(object).serialized(sortedKeys: true), as: UTF8.self)
                == #"{"a":2,"m":3,"z":1}"#)
    }

    @Test(
        "escapes and Unicode decode",
        arguments: [
            (#""\u0041\u00e9\u20ac""#, "Aé€"),
            (#""\ud83d\ude00""#, "😀"),
            (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{c}\n\r\t"),
            (#""\u0000""#, "\u{0}"),
            ("\"héllo 😀\"", "héllo 😀"),
        ])
    func escapes(json: String, expected: String) throws {
        #expect(try JSONValue.parse(json).stringValue == expected)
    }

    @Test(
        "strict: rejects what RFC 8259 forbids",
        arguments: [
            "", " ", "[1,]", #"{"a":1,}"#, "[,1]", "01", "-01", "00", "1.", ".5", "-", "1e", "+1", "NaN", "Infinity",
            "[1 2]", #"{"a" 1}"#, #"{a:1}"#, "'x'", "\"\u{1}\"", "\"a\nb\"", "\"\t\"", #""\ud800""#, #""\udc00""#,
            #""\ud800\u0041""#, #""\x41""#, #""\u12""#, "\"abc", "[1]x", "{} {}", "true false", "tru", "nul", "[",
            "{", #"{"a":1"#, #"{"a":1,"a":2}"#, "\u{FEFF}{}",
        ])
    func rejects(json: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(json) }
    }

    @Test(
        "rejects invalid UTF-8",
        arguments: [
            [0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22],
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0x80, 0x22],
        ] as [[UInt8]])
    func rejectsInvalidUTF8(bytes: [UInt8]) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(bytes) }
    }

    @Test("depth limit: 64 levels pass, 65 fail")
    func depth() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONValue.parse(ok) }
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(deep) }
        let hostile = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(hostile) }
    }

    @Test("errors name the offset and the rule")
    func errorMessages() {
        do {
            _ = try JSONValue.parse(#"{"a":1,}"#)
            Issue.record("accepted a trailing comma")
        } catch {
            #expect(error.offset == 7)
            #expect(error.message.contains("trailing comma"))
        }
    }

    @Test("serialization round-trips, escaping control characters")
    func roundTrip() throws {
        let value: JSONValue = [
            "s": "quote \" backslash \\ newline \n nul \u{0} del \u{7F} emoji 😀 slash /", "n": 12, "b": false,
            "x": nil, "a": [[], [:]],
        ]
        let text = value.serializedString
        #expect(text.contains(#"\u0000"#))
        #expect(!text.contains("\n"))
        #expect(try JSONValue.parse(text) == value)
    }

    @Test("object equality ignores order; subscripts edit in place")
    func objectEditing() {
        var object: JSONObject = ["a": 1, "b": 2]
        #expect(object == ["b": 2, "a": 1])
        object["a"] = "x"
        object["c"] = true
        object["b"] = nil
        #expect(object.keys == ["a", "c"])
        #expect(object["a"] == "x")
        #expect(JSONObject([("k", 1), ("k", 2)]).pairs.count == 1)
    }

    @Test("JSONNumber validates literals")
    func numberLiterals() {
        #expect(JSONNumber(literal: "1.5e-3") != nil)
        #expect(JSONNumber(literal: "01") == nil)
        #expect(JSONNumber(literal: "1.") == nil)
        #expect(JSONNumber(literal: "") == nil)
        #expect(JSONNumber(42).literal == "42")
    }

    @Test("random bytes never crash the parser")
    func fuzz() {
        var random = SplitMix(seed: 42)
        let alphabet = Array(#"{}[]:,"\ -+.eE0123456789tfnrulsa"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xA9, 0xFF]
        for _ in 0..<5000 {
            let count = Int.random(in: 0...40, using: &random)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &random)! }
            _ = try? JSONValue.parse(bytes)
        }
        let valid = Array(#"{"id":"a","list":[1,2.5,"x\u00e9",{"k":null}],"t":true}"#.utf8)
        for cut in 0..<valid.count {
            _ = try? JSONValue.parse(Array(valid[..<cut]))
            #expect(throws: JSONParseError.self) { try JSONValue.parse(Array(valid[..<cut])) }
        }
        _ = try? JSONValue.parse(valid + valid)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(valid + valid) }
    }
}
