import Foundation
import VivaCloudModels

/// Which base URLs the client accepts: `https://` to any host; plain `http://` only to a loopback address
/// (`127.0.0.0/8`, `[::1]`), for a stand-in such as the simulated back office on the same machine.
public enum URLPolicy {
    /// Checks `url` (the setting `key`), throwing an error that names the key and the rule.
    public static func check(_ url: String, key: String) throws(VivaCloudError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else {
            throw VivaCloudError(.invalidSettings, "\(key): \(url) is not an absolute URL (https://host)")
        }
        guard components.query == nil, components.user == nil, components.password == nil else {
            throw VivaCloudError(.invalidSettings, "\(key): \(url) must be a base URL, with no query or credentials")
        }
        switch scheme {
        case "https":
            return
        case "http":
            guard isLoopbackAddress(host) else {
                throw VivaCloudError(
                    .insecureURL,
                    "\(key): \(url) is plain http to a host that is not a loopback address; use https, or http only to 127.0.0.1 or [::1]"
                )
            }
        default:
            throw VivaCloudError(.invalidSettings, "\(key): \(url) must be https (or http to a loopback address)")
        }
    }

    /// True for an IPv4 address in `127.0.0.0/8` or the IPv6 loopback address (a name never counts).
    public static func isLoopbackAddress(_ host: String) -> Bool {
        var bare = host
        if bare.hasPrefix("["), bare.hasSuffix("]") { bare = String(bare.dropFirst().dropLast()) }
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
        }
        return false
    }
}
