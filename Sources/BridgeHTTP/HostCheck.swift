import Bridge
import Foundation
import Hummingbird
import NIOCore

/// A request's context on this listener: Hummingbird's, with the connection it came on (the address it
/// was accepted on decides the `Host` names taken; an `/events` viewer that is dropped is closed by it).
struct ListenerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// Answers 421 Misdirected Request to a request whose `Host` does not name this listener: a page that
/// DNS rebinding pointed at 127.0.0.1 sends its own name, and reads nothing (docs/SECURITY.md, "The HTTP
/// listener"). Taken: a loopback name (``Loopback/isLoopback(host:)``), the listener's
/// configured host, the address the connection reached, and `httpHosts`. The port is not compared.
struct HostCheck: RouterMiddleware {
    typealias Context = ListenerContext

    /// The configured host and `httpHosts`, as ``HTTPAddress/hostName(_:)`` writes them.
    let names: Set<String>
    let metrics: HTTPListenerMetrics

    init(address: HTTPAddress, hosts: [String], metrics: HTTPListenerMetrics) {
        // A wildcard bind's own host (0.0.0.0, ::) names no machine: the address a connection reached does.
        let own = [address.host].filter { Self.addressBytes($0).map { !$0.allSatisfy { $0 == 0 } } ?? true }
        names = Set((own + hosts).compactMap(HTTPAddress.hostName))
        self.metrics = metrics
    }

    func handle(
        _ request: Request, context: ListenerContext,
        next: (Request, ListenerContext) async throws -> Response
    ) async throws -> Response {
        if let host = request.head.authority.flatMap(Self.name(ofAuthority:)),
            takes(host, arrivedAt: context.channel.localAddress)
        {
            return try await next(request, context)
        }
        metrics.requestMisdirected()
        let names = "localhost or its address, or a name in httpHosts"
        let message =
            request.head.authority.map { "\"\($0)\" is not a name of this listener; use \(names)" }
            ?? "a request needs a Host naming this listener: \(names)"
        return HTTPRoutes.json(.misdirectedRequest, ["error": .string(message)])
    }

    /// Whether `host` (as ``name(ofAuthority:)`` gives it) names this listener for a connection that
    /// reached `local`.
    func takes(_ host: String, arrivedAt local: SocketAddress?) -> Bool {
        if names.contains(host) || Loopback.isLoopback(host: host) { return true }
        guard let bytes = Self.addressBytes(host), let ip = local?.ipAddress else { return false }
        return bytes == Self.addressBytes(ip)
    }

    /// The host of a `Host` value (`name`, `name:port`, `[v6]:port`), lower case, or nil when it is none.
    static func name(ofAuthority authority: String) -> String? {
        var host = Substring(authority)
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isASCIIDigit)) else {
                return nil
            }
            host = host[...close]
        } else if let colon = host.lastIndex(of: ":") {
            guard host[host.index(after: colon)...].allSatisfy(\.isASCIIDigit) else { return nil }
            host = host[..<colon]
        }
        return HTTPAddress.hostName(host)
    }

    /// The bytes of an IPv4 address in dotted-decimal form or of an IPv6 address; nil for anything else.
    static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
