import BridgeCore
import BridgeJournal

extension HTTPAddress {
    /// `httpHosts:` (docs/CONFIG.md): a list of host names or addresses, or one value with the names
    /// separated by commas (how `VIVABRIDGE_HTTP_HOSTS` gives them). Each is kept in the form the listener
    /// compares a request's `Host` with: lower case, no trailing dot, an IPv6 address without brackets.
    static func decodeHosts(_ tree: ConfigTree) throws(ConfigurationError) -> [String] {
        let texts: [String]
        switch tree {
        case .scalar(let text) where text.allSatisfy({ $0 == " " }):
            return []
        case .scalar(let text):
            texts = text.split(separator: ",", omittingEmptySubsequences: false).map {
                String($0).trimmingSpaces
            }
        case .sequence(let items):
            var all: [String] = []
            for (index, item) in items.enumerated() {
                all.append(try BridgeConfiguration.scalar(item, "httpHosts[\(index)]"))
            }
            texts = all
        case .mapping:
            throw ConfigurationError(key: "httpHosts", "must be a list of host names (e.g. [pos-screen.local])")
        }
        return try texts.map { text throws(ConfigurationError) in
            guard let name = hostName(text) else {
                throw ConfigurationError(
                    key: "httpHosts",
                    "\"\(text)\" is not a host name or address; give names as a browser's address bar has them, "
                        + "without a port or a scheme (e.g. pos-screen.local, 192.168.1.20, [fe80::1])")
            }
            return name
        }
    }

    /// `text` as a host name the listener compares with, or nil when it is none: letters, digits, `-` and
    /// `.` (up to 253 characters), or an IPv6 address in or out of brackets.
    public static func hostName(_ text: some StringProtocol) -> String? {
        var name = text.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty, name.utf8.count <= 253 else { return nil }
        if name.contains(":") {
            return name.utf8.allSatisfy({ $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") || isHexDigit($0) })
                ? name : nil
        }
        let allowed = name.utf8.allSatisfy {
            ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
        return allowed && !name.hasPrefix(".") && !name.contains("..") ? name : nil
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
