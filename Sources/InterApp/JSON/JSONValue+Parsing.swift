extension JSONValue {
    /// Parses one JSON text from UTF-8 bytes, strictly.
    ///
    /// Strict means RFC 8259 exactly, plus two rules of this project: an object key may appear only once, and
    /// arrays and objects nest at most 64 deep. Rejected: trailing commas, leading zeros, unescaped control
    /// characters, lone surrogates, invalid UTF-8, a byte order mark, anything after the value.
    /// - Throws: ``JSONParseError`` naming the byte offset and the rule that was broken.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer)
            do throws(JSONParseError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses one JSON text from a string; see ``parse(_:)-(_:[UInt8])``.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}
