/// A JSON object: key/value pairs in the order they were given, each key at most once.
///
/// Lookups scan the pairs, which is fastest for the small objects of this protocol. Two objects are equal when
/// they hold the same keys with equal values, in any order (JSON objects are unordered); serialization keeps the
/// order, or sorts the keys on request.
public struct JSONObject: Sendable {
    private var storage: [(key: String, value: JSONValue)]

    /// Creates an empty object.
    public init() {
        storage = []
    }

    /// Creates an object from pairs, in order; a repeated key replaces the earlier value in its place.
    public init(_ pairs: [(String, JSONValue)]) {
        storage = []
        storage.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    /// Creates an object from pairs the caller guarantees to have unique keys.
    init(uniquePairs: [(key: String, value: JSONValue)]) {
        storage = uniquePairs
    }

    /// The value for `key`, or `nil`; setting `nil` removes the key, setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get {
            for pair in storage where pair.key == key { return pair.value }
            return nil
        }
        set {
            if let index = storage.firstIndex(where: { $0.key == key }) {
                if let newValue { storage[index].value = newValue } else { storage.remove(at: index) }
            } else if let newValue {
                storage.append((key, newValue))
            }
        }
    }

    /// The keys, in order.
    public var keys: [String] { storage.map(\.key) }

    /// The key/value pairs, in order.
    public var pairs: [(key: String, value: JSONValue)] { storage }

    /// The number of keys.
    public var count: Int { storage.count }

    /// Whether the object has no keys.
    public var isEmpty: Bool { storage.isEmpty }

    /// Whether the object holds `key`.
    public func contains(_ key: String) -> Bool {
        storage.contains { $0.key == key }
    }
}

extension JSONObject: Equatable {
    /// Same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.storage.count == rhs.storage.count else { return false }
        for (key, value) in lhs.storage {
            guard let other = rhs[key], other == value else { return false }
        }
        return true
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Creates an object from a literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: CustomStringConvertible {
    /// The compact JSON text.
    public var description: String { JSONValue.object(self).serializedString }
}
