import Bridge
import BridgeClient
import BridgeHTTP
import Foundation
import Logging
import ServiceLifecycle
import Testing

/// An HTTP listener for a test's bridge, run as its service runs it (in a service group), on a free
/// loopback port.
final class RunningListener: Sendable {
    let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Starts `HTTPListener` for `bridge` on `127.0.0.1:0` (answering `hosts` too, within `limits`) and
    /// waits until it listens.
    init(
        bridge: Bridge, hosts: [String] = [], limits: HTTPLimits = HTTPLimits(),
        logger: Logger = Logger(label: "http-test")
    ) async throws {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let listener = HTTPListener(
            bridge: bridge, address: HTTPAddress(host: "127.0.0.1", port: 0), hosts: hosts, limits: limits,
            logger: logger
        ) { continuation.yield($0.port) }
        let group = ServiceGroup(services: [listener], logger: logger)
        self.group = group
        task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        port = try #require(await iterator.next(), "the HTTP listener never listened")
    }

    /// Stops the listener as `run`'s SIGTERM does: a graceful shutdown, which closes the listening socket
    /// before the connections. (A cancelled server can still accept a connection it no longer hands on,
    /// and swift-nio traps on the channel it dropped: a test that leaves connects waiting would crash.)
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}

/// A plain HTTP/1.1 client over a POSIX socket: what `curl` would see, with no library in between.
enum HTTPProbe {
    struct Answer: Sendable {
        let status: Int
        let headers: [String: String]
        let body: String
    }

    /// `GET path` on loopback `port` with `Host: host` (none when nil); the whole answer (Connection:
    /// close). The blocking I/O runs on a thread of its own: the listener's handlers need Swift's few
    /// cooperative threads meanwhile.
    static func get(_ path: String, port: Int, host: String? = "127.0.0.1", timeoutMs: Int = 10_000) async throws
        -> Answer
    {
        try await offPool { try getBlocking(path, port: port, host: host, timeoutMs: timeoutMs) }
    }

    /// Runs `work` off the cooperative pool, on a thread of its own (``OffPool``).
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await OffPool.run(work)
    }

    private static func getBlocking(_ path: String, port: Int, host: String?, timeoutMs: Int) throws -> Answer {
        let connection = try LoopbackHTTP(port: port, timeoutMs: timeoutMs)
        try connection.get(path, closing: true, host: host)
        return try parse(connection.receiveAll())
    }

    /// Opens `GET path` as an event stream and reads `data:` lines until `until` says stop (or the
    /// time runs out); `onOpen` runs once the first line came. Returns every line's JSON, in order.
    static func events(
        _ path: String = "/events", port: Int, timeoutMs: Int = 10_000,
        onOpen: @escaping @Sendable () throws -> Void = {}, until done: @escaping @Sendable ([String]) -> Bool
    ) async throws -> [String] {
        try await offPool {
            try eventsBlocking(path, port: port, timeoutMs: timeoutMs, onOpen: onOpen, until: done)
        }
    }

    private static func eventsBlocking(
        _ path: String, port: Int, timeoutMs: Int, onOpen: () throws -> Void, until done: ([String]) -> Bool
    ) throws -> [String] {
        let connection = try LoopbackHTTP(port: port, timeoutMs: 200)
        try connection.get(path, closing: false)
        return try connection.readEventData(timeoutMs: timeoutMs, onFirstLine: onOpen, until: done)
    }

    static func parse(_ bytes: [UInt8]) throws -> Answer {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw ProbeError.io("no HTTP head in \(text)") }
        let head = text[..<split.lowerBound].split(separator: "\r\n")
        let statusLine = head.first.map(String.init) ?? ""
        let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = String(text[split.upperBound...])
        if headers["transfer-encoding"] == "chunked" { body = dechunk(body) }
        return Answer(status: status, headers: headers, body: body)
    }

    private static func dechunk(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let line = rest.range(of: "\r\n"), let size = Int(rest[..<line.lowerBound], radix: 16), size > 0 {
            let start = line.upperBound
            let end = rest.utf8.index(start, offsetBy: size)
            out += rest[start..<end]
            rest = rest[end...].dropFirst(2)
        }
        return out
    }

    enum ProbeError: Error { case io(String) }
}

/// Prometheus text, read back: each sample's value by its name and labels as written.
struct Scrape {
    let samples: [String: Double]

    init(_ text: String) {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            samples[Self.canonical(String(line[..<space]))] = value
        }
        self.samples = samples
    }

    /// The value of `name` with exactly `labels` (any order), or 0 when it has no sample.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double {
        samples[Self.key(name, labels)] ?? 0
    }

    /// Whether `name` with `labels` has a sample at all.
    func has(_ name: String, _ labels: [String: String] = [:]) -> Bool { samples[Self.key(name, labels)] != nil }

    static func key(_ name: String, _ labels: [String: String]) -> String {
        guard !labels.isEmpty else { return name }
        return name + "{" + labels.sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value)\"" }.joined(separator: ",")
            + "}"
    }

    /// `name{b="2",a="1"}` as `name{a="1",b="2"}`.
    static func canonical(_ series: String) -> String {
        guard let open = series.firstIndex(of: "{"), series.hasSuffix("}") else { return series }
        let name = String(series[..<open])
        let inner = series[series.index(after: open)..<series.index(before: series.endIndex)]
        var labels: [String: String] = [:]
        for pair in inner.split(separator: ",") {
            guard let equals = pair.firstIndex(of: "=") else { continue }
            labels[String(pair[..<equals])] = String(pair[pair.index(after: equals)...].dropFirst().dropLast())
        }
        return key(name, labels)
    }
}
