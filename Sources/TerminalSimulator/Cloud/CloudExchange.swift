/// A request the simulated back office received, as its HTTP listener read it.
public struct CloudRequest: Sendable {
    /// `GET`, `POST`...
    public var method: String
    /// The path and query (`/api/transactions?date=2026-11-21`).
    public var target: String
    /// The headers, names lowercased.
    public var headers: [String: String]
    /// The body.
    public var body: [UInt8]

    /// Creates a request.
    public init(method: String, target: String, headers: [String: String], body: [UInt8]) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// The path, without the query.
    var path: String { String(target.prefix { $0 != "?" }) }

    /// The query's values, percent-decoded.
    var query: [String: String] {
        guard let start = target.firstIndex(of: "?") else { return [:] }
        var values: [String: String] = [:]
        for pair in target[target.index(after: start)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? String(parts[1]).removingPercentEncoding ?? String(parts[1]) : ""
            values[name] = value
        }
        return values
    }
}

/// The simulated back office's answer.
public struct CloudResponse: Sendable {
    /// The HTTP status.
    public var status: Int
    /// Extra headers (`Retry-After`).
    public var headers: [String: String] = [:]
    /// The JSON body (empty for none).
    public var body: [UInt8] = []
    /// How long to wait before sending it.
    public var delayMs = 0
}

/// One request the back office answered (for assertions): never a header or a body.
public struct CloudRequestRecord: Sendable, Equatable {
    public var method: String
    /// The path, without the query.
    public var path: String
    public var status: Int
    /// The request's body (a sale's JSON; the token's form holds no secret the back office did not issue).
    public var body: [UInt8] = []
}
