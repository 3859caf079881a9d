/// One parameter in the action table: its name, its kind (type and range) and whether it is required.
public struct ParameterSpec: Sendable, Equatable {
    /// The JSON type a parameter takes and the rule on its value.
    public enum Kind: Sendable, Equatable {
        /// A JSON integer (no fraction, no exponent, never a string) in the range; goes into the URL as decimal.
        case integer(ClosedRange<Int>)
        /// A JSON boolean; goes into the URL as `true` or `false`.
        case flag
        /// A non-empty JSON string of any Unicode, at most `maxLength` UTF-16 code units (the unit both terminal
        /// platforms count in); goes into the URL as is, percent-encoded.
        case text(maxLength: Int)
        /// A JSON string of 1 to `maxLength` ASCII digits; a string so that leading zeros and long codes survive
        /// clients whose numbers are doubles.
        case digits(maxLength: Int)
        /// A JSON string of exactly `count` ASCII digits, not all zeros (Viva's 16-digit order codes, v1.1).
        case fixedDigits(count: Int)
        /// A JSON string holding an ISO 8601 date, `YYYY-MM-DD` optionally followed by a time
        /// (`2024-05-01T10:00:00+03:00`): printable ASCII, at most 40 characters.
        case date
        /// A JSON string equal to one of the values.
        case oneOf([String])
        /// A JSON string holding a UUID, `8-4-4-4-12` hexadecimal digits in either case.
        case uuid
    }

    /// Viva's name of the parameter, the same in the command and in the URL.
    public let name: String
    /// The type and the rule on the value.
    public let kind: Kind
    /// Whether a command must carry it.
    public let isRequired: Bool
    /// What the number counts, for messages (`cents`), if anything.
    public let unit: String?

    /// Creates an entry.
    public init(_ name: String, _ kind: Kind, required: Bool = false, unit: String? = nil) {
        self.name = name
        self.kind = kind
        self.isRequired = required
        self.unit = unit
    }

    /// A required parameter.
    public static func required(_ name: String, _ kind: Kind, unit: String? = nil) -> ParameterSpec {
        ParameterSpec(name, kind, required: true, unit: unit)
    }

    /// An optional parameter.
    public static func optional(_ name: String, _ kind: Kind, unit: String? = nil) -> ParameterSpec {
        ParameterSpec(name, kind, required: false, unit: unit)
    }
}

extension ParameterSpec.Kind {
    /// What a valid value looks like, for messages: `a JSON integer from 1 to 2147483647`.
    func expectation(unit: String?) -> String {
        switch self {
        case .integer(let range):
            let counted = unit.map { " (\($0))" } ?? ""
            return "a JSON integer from \(range.lowerBound) to \(range.upperBound)\(counted)"
        case .flag:
            return "a JSON boolean, true or false"
        case .text(let maxLength):
            return "a non-empty string of at most \(maxLength) characters"
        case .digits(let maxLength):
            return "a string of 1 to \(maxLength) digits"
        case .fixedDigits(let count):
            return "a string of exactly \(count) digits, not all zeros"
        case .date:
            return "an ISO 8601 date string such as \"2024-05-01\" or \"2024-05-01T10:00:00+03:00\""
        case .oneOf(let values):
            return "one of " + values.map { "\"\($0)\"" }.joined(separator: ", ")
        case .uuid:
            return "a UUID string such as \"7885F4F1-59CA-42C2-81BB-6DB48AA138A6\""
        }
    }
}
