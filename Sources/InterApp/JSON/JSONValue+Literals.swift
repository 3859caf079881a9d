extension JSONValue: ExpressibleByNilLiteral {
    /// `nil` is JSON `null`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// `true` and `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// An integer literal is a JSON integer.
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string literal is a JSON string.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// An array literal is a JSON array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// A dictionary literal is a JSON object, in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}
