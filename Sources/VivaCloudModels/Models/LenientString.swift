/// A value Viva sends as a JSON string in one API and as a number in another (an order code): read either
/// way, kept as text.
public struct LenientString: Codable, Sendable, Hashable, CustomStringConvertible {
    public var value: String

    public init(_ value: String) { self.value = value }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            value = text
        } else if let number = try? container.decode(Int64.self) {
            value = String(number)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a string or an integer")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    public var description: String { value }
}
