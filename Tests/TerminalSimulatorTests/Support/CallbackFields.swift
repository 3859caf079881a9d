import Foundation

/// A callback URL read the tolerant way a bridge must: split on `&` and the first `=`, names trimmed of
/// stray spaces, values percent-decoded once, `+` kept as a plus.
struct CallbackFields: CustomStringConvertible {
    let url: String
    let base: String
    let pairs: [(name: String, value: String)]

    init(_ url: String) {
        self.url = url
        let parts = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        base = String(parts[0])
        var pairs: [(String, String)] = []
        if parts.count == 2 {
            for segment in parts[1].split(separator: "&") {
                let nameValue = segment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(nameValue[0]).trimmingCharacters(in: .whitespaces)
                let raw = nameValue.count == 2 ? String(nameValue[1]) : ""
                pairs.append((name, raw.removingPercentEncoding ?? raw))
            }
        }
        self.pairs = pairs
    }

    /// The value of `name`, as received (spaces included); nil when absent.
    subscript(_ name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// The value of `name` without leading or trailing spaces.
    func trimmed(_ name: String) -> String? {
        self[name]?.trimmingCharacters(in: .whitespaces)
    }

    /// The names, in order.
    var names: [String] { pairs.map(\.name) }

    var description: String { url }
}
