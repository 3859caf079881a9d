import BridgeCore
import BridgeJournal

/// Where the HTTP listener listens: `host:port` (`http:` in the configuration; docs/CONFIG.md).
public struct HTTPAddress: Sendable, Equatable, CustomStringConvertible {
    /// The host to bind: an IPv4 address, `localhost`, or an IPv6 address (written `[::1]:9556`).
    public var host: String
    /// The port; 0 takes any free port (the log line and ``HTTPAddress`` of the running listener say which).
    public var port: Int

    /// Creates an address.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Reads `host:port`; nil for `off`.
    public init?(parsing text: String) throws(ConfigurationError) {
        if text == "off" { return nil }
        guard let colon = text.lastIndex(of: ":") else {
            throw ConfigurationError(key: "http", "must be host:port (e.g. 127.0.0.1:9556) or off, not \(text)")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains(where: \.isWhitespace), !host.contains("/") else {
            throw ConfigurationError(key: "http", "needs a host (e.g. 127.0.0.1:9556), not \(text)")
        }
        guard let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw ConfigurationError(key: "http", "needs a port from 0 to 65535 (0: any free port), not \(text)")
        }
        self.init(host: host, port: port)
    }

    static func decode(_ tree: ConfigTree) throws(ConfigurationError) -> HTTPAddress? {
        try HTTPAddress(parsing: try BridgeConfiguration.scalar(tree, "http"))
    }

    /// Whether only this machine can reach it (``Loopback/isLoopback(host:)``).
    public var isLoopback: Bool { Loopback.isLoopback(host: host) }

    /// `host:port`, IPv6 hosts in brackets.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
