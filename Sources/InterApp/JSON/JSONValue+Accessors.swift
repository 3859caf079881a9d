extension JSONValue {
    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The object, if this is an object.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The flag, if this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The number, if this is a number.
    public var numberValue: JSONNumber? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The integer, if this is a number written as an integer (no fraction, no exponent) that fits an `Int`.
    public var intValue: Int? {
        numberValue?.intValue
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        self == .null
    }

    /// The value for `key` if this is an object holding it; `nil` otherwise.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// A short name of this value's JSON type for messages: `a string`, `an integer`, `null`, ...
    var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number(let number): number.isInteger ? "an integer" : "a number with a fraction or exponent"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
