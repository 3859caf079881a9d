/// A JSON value as RFC 8259 defines it, with numbers kept as their literal text.
///
/// Parse one with ``parse(_:)-(_:[UInt8])``, write one with ``serialized(sortedKeys:)``. Objects keep their keys
/// in the order they arrived; numbers keep the exact digits that were sent, so nothing is lost to floating point.
public enum JSONValue: Sendable, Equatable {
    /// The literal `null`.
    case null
    /// The literal `true` or `false`.
    case bool(Bool)
    /// A number, kept as its literal text.
    case number(JSONNumber)
    /// A string, already unescaped.
    case string(String)
    /// An array of values, in order.
    case array([JSONValue])
    /// An object: ordered key/value pairs with unique keys.
    case object(JSONObject)
}
