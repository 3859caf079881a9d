/// One named value of a request URL or a callback, as text.
///
/// In a request the value is the text that goes into the URL before percent-encoding: `1200`, `true`, or the
/// string as sent. Printing a parameter never shows a secret (`merchantKey`, `ISV_clientSecret`): the value
/// prints as `***`.
public struct Parameter: Sendable, Equatable, Hashable {
    /// The parameter's name, Viva's spelling.
    public let name: String
    /// The parameter's value as text.
    public let value: String

    /// Creates a parameter.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Creates a parameter.
    public init(_ name: String, _ value: String) {
        self.init(name: name, value: value)
    }

    /// The value, or `***` when the parameter is a secret.
    var printableValue: String {
        Masking.isSecret(name) ? Masking.redacted : value
    }
}

extension Parameter: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `name=value`, secrets as `***`.
    public var description: String { "\(name)=\(printableValue)" }

    /// `Parameter(name: "amount", value: "1200")`, secrets as `***`.
    public var debugDescription: String {
        "Parameter(name: \(name.debugDescription), value: \(printableValue.debugDescription))"
    }

    /// The name and the printable value, so that `dump` shows no secret either.
    public var customMirror: Mirror { Mirror(self, children: ["name": name, "value": printableValue]) }
}
