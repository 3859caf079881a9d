import BridgeCore
import BridgeJournal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What only this machine can reach: the one rule for the `http:` address and the ZeroMQ endpoints.
public enum Loopback {
    /// Whether `host` names this machine alone: an IPv4 address literal in 127.0.0.0/8 (four decimal
    /// octets), the IPv6 address literal ::1 (any spelling, brackets allowed: `[::1]`), or `localhost`
    /// (any case). Nothing else is, and no name is looked up: `127.attacker.example` and
    /// `localhost.evil.example` are names that anyone's DNS may point anywhere, and `0.0.0.0` is every
    /// address of the machine.
    public static func isLoopback(host: some StringProtocol) -> Bool {
        var text = String(host)
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if text.lowercased() == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return false }
        return withUnsafeBytes(of: &v6) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
    }

    /// Whether only this machine can reach the ZeroMQ `endpoint`: `tcp://` to a loopback host
    /// (``isLoopback(host:)``), `ipc://` or `inproc://`.
    public static func isLoopback(endpoint: String) -> Bool {
        if endpoint.hasPrefix("ipc://") || endpoint.hasPrefix("inproc://") { return true }
        guard endpoint.hasPrefix("tcp://"), let colon = endpoint.lastIndex(of: ":") else { return false }
        let host = endpoint[endpoint.index(endpoint.startIndex, offsetBy: 6)..<colon]
        return isLoopback(host: host)
    }
}
