import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import VivaCloudModels

/// Calls Viva's cloud: the day's transactions (older API, Basic auth), one transaction (`/checkout/v2`,
/// Bearer) and the Cloud Terminal session calls (`/ecr/v1`, Bearer).
///
/// The OAuth2 token (client credentials) is cached until shortly before it expires and fetched again once
/// when Viva refuses it. Every exchange has a timeout and stays within the client's own request rate; 429
/// and 5xx are answered by waiting (`Retry-After` when given) and sending again, within `maxAttempts`,
/// except that a sale is never sent twice blindly. HTTP runs on AsyncHTTPClient's event loops; TLS checks
/// certificates against the system's trust store; redirects are not followed. Call ``shutdown()`` when done.
///
/// Secrets and tokens appear in no log line, error or observed exchange.
public final class VivaCloudClient: Sendable {
    private let settings: VivaCloudSettings
    private let http: HTTPClient
    private let transport: VivaCloudTransport
    private let tokens: TokenCache

    /// Creates a client; nothing is sent before the first call.
    ///
    /// - Parameters:
    ///   - settings: the URLs, credentials and limits.
    ///   - logger: where calls are logged (the call, the status, the attempt; never a header or a body).
    ///   - observer: told of every exchange, for metrics.
    ///   - executor: where the client's own tasks (the token's fetch) run; nil: the cooperative pool. A caller
    ///     whose pool may be held by blocking calls gives a thread of its own.
    public init(
        settings: VivaCloudSettings, logger: Logger? = nil, observer: VivaCloudObserver? = nil,
        executor: (any TaskExecutor)? = nil
    ) throws(VivaCloudError) {
        try settings.validate()
        let logger = logger ?? Logger(label: "vivabridge.viva-cloud", factory: { _ in SwiftLogNoOpLogHandler() })
        let timeout = TimeAmount.nanoseconds(
            settings.timeout.components.seconds * 1_000_000_000 + settings.timeout.components.attoseconds
                / 1_000_000_000)
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: timeout, read: timeout))
        configuration.httpVersion = .http1Only
        let http = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration,
            backgroundActivityLogger: logger)
        let transport = VivaCloudTransport(
            http: http, settings: settings,
            limiter: RequestRateLimiter(rate: settings.requestsPerSecond, burst: settings.burst), logger: logger,
            observer: observer)
        self.settings = settings
        self.http = http
        self.transport = transport
        self.tokens = TokenCache(executor: executor) { () async throws(VivaCloudError) -> AccessTokenResponse in
            try await Self.fetchToken(transport, settings: settings)
        }
    }

    /// Closes the client's connections; every call after it fails with `shutDown`.
    public func shutdown() async {
        try? await http.shutdown()
    }

    // MARK: - Transactions

    /// The transactions Viva recorded on `day` (`YYYY-MM-DD`, the merchant's local day):
    /// `GET {legacy}/api/transactions?date=`, Basic auth with the Merchant ID and API key.
    public func transactions(onDay day: String) async throws(VivaCloudError) -> [DayTransaction] {
        guard Self.isDay(day) else {
            throw VivaCloudError(.invalidSettings, "listTransactions: \(day) is not a day (YYYY-MM-DD)")
        }
        let call = VivaCloudCall(
            name: "listTransactions", method: .GET, url: "\(settings.endpoints.legacy)/api/transactions?date=\(day)",
            repeatable: true)
        let answer = try await transport.send(
            call, authorization: Self.basic(settings.merchantId, settings.apiKey))
        try Self.expectSuccess(answer, call: call, credentials: "the Merchant ID and API key")
        let list: DayTransactions = try Self.decode(answer, call: call)
        if let code = list.errorCode, code != 0 {
            throw VivaCloudError(
                .rejected, "listTransactions: Viva answered error \(code) for \(day)", httpStatus: answer.status)
        }
        return list.transactions
    }

    /// One transaction as Viva records it: `GET {api}/checkout/v2/transactions/{id}`, Bearer.
    public func transaction(id: String) async throws(VivaCloudError) -> CheckoutTransaction {
        let call = VivaCloudCall(
            name: "getTransaction", method: .GET,
            url: "\(settings.endpoints.api)/checkout/v2/transactions/\(Self.pathSegment(id))", repeatable: true)
        let answer = try await sendWithToken(call)
        try Self.expectSuccess(answer, call: call, credentials: "the POS APIs credentials")
        return try Self.decode(answer, call: call)
    }

    // MARK: - Cloud Terminal sessions

    /// Starts a session on a Viva Terminal app: `POST {api}/ecr/v1/transactions:<call>` (a sale, capture or
    /// refund, ``CloudTerminalRequest/call``). Viva answers with no body; the result is the session's. A 5xx
    /// or a lost answer is thrown, never repeated: the request may have been applied, so ask for its session
    /// before posting it again.
    public func startSession(_ request: CloudTerminalRequest) async throws(VivaCloudError) {
        let name = request.call.rawValue
        let body: [UInt8]
        do {
            body = Array(try JSONEncoder().encode(request))
        } catch {
            throw VivaCloudError(.invalidSettings, "\(name): cannot encode the request (\(error))")
        }
        let call = VivaCloudCall(
            name: name, method: .POST, url: "\(settings.endpoints.api)/ecr/v1/transactions:\(request.call.path)",
            contentType: "application/json", body: body, repeatable: false)
        let answer = try await sendWithToken(call)
        try Self.expectSuccess(answer, call: call, credentials: "the POS APIs credentials")
    }

    /// A session's state: `GET {api}/ecr/v1/sessions/{id}?cashRegisterId=` (202 running, 200 finished).
    public func session(id: String, cashRegisterId: String) async throws(VivaCloudError) -> CloudTerminalSessionState {
        let call = VivaCloudCall(
            name: "getSession", method: .GET, url: sessionURL(id: id, cashRegisterId: cashRegisterId), repeatable: true)
        let answer = try await sendWithToken(call)
        if answer.status == 202 { return .running }
        try Self.expectSuccess(answer, call: call, credentials: "the POS APIs credentials")
        return .finished(try Self.decode(answer, call: call))
    }

    /// Aborts a session: `DELETE {api}/ecr/v1/sessions/{id}?cashRegisterId=`. The session then ends on its
    /// own; ask for it to learn how.
    public func abortSession(id: String, cashRegisterId: String) async throws(VivaCloudError) {
        let call = VivaCloudCall(
            name: "abortSession", method: .DELETE, url: sessionURL(id: id, cashRegisterId: cashRegisterId),
            repeatable: true)
        let answer = try await sendWithToken(call)
        try Self.expectSuccess(answer, call: call, credentials: "the POS APIs credentials")
    }

    private func sessionURL(id: String, cashRegisterId: String) -> String {
        "\(settings.endpoints.api)/ecr/v1/sessions/\(Self.pathSegment(id))?cashRegisterId=\(Self.queryValue(cashRegisterId))"
    }

    // MARK: - Authorisation

    /// Sends `call` with the cached token; when Viva refuses the token, fetches a new one once and sends
    /// the call again.
    private func sendWithToken(_ call: VivaCloudCall) async throws(VivaCloudError) -> VivaCloudAnswer {
        let token = try await tokens.token()
        let answer = try await transport.send(call, authorization: "Bearer \(token.value)")
        guard Self.refusesToken(answer) else { return answer }
        let fresh = try await tokens.token(replacing: token)
        let again = try await transport.send(call, authorization: "Bearer \(fresh.value)")
        guard Self.refusesToken(again) else { return again }
        throw VivaCloudError(
            .unauthorized,
            "\(call.name): Viva refused a freshly issued token (401); check the POS APIs credentials' rights",
            httpStatus: again.status)
    }

    private static func fetchToken(_ transport: VivaCloudTransport, settings: VivaCloudSettings)
        async throws(VivaCloudError) -> AccessTokenResponse
    {
        let call = VivaCloudCall(
            name: "token", method: .POST, url: "\(settings.endpoints.accounts)/connect/token",
            contentType: "application/x-www-form-urlencoded", body: Array("grant_type=client_credentials".utf8),
            repeatable: true)
        let answer = try await transport.send(call, authorization: basic(settings.clientId, settings.clientSecret))
        if answer.status == 400 || answer.status == 401 {
            throw VivaCloudError(
                .unauthorized,
                "token: Viva refused the client id and secret (\(answer.status)); check clientId and clientSecretFile (Viva's POS APIs credentials)",
                httpStatus: answer.status)
        }
        try expectSuccess(answer, call: call, credentials: "the POS APIs credentials")
        let response: AccessTokenResponse = try decode(answer, call: call)
        guard !response.accessToken.isEmpty else {
            throw VivaCloudError(.invalidResponse, "token: Viva's answer holds no access token")
        }
        return response
    }

    /// A 401, or Viva's body saying it could not validate the credentials (as Odoo's client checks).
    private static func refusesToken(_ answer: VivaCloudAnswer) -> Bool {
        if answer.status == 401 { return true }
        guard answer.status >= 400, let detail = try? JSONDecoder().decode(Detail.self, from: Data(answer.body))
        else { return false }
        return detail.detail == "Could not validate credentials"
    }

    private struct Detail: Decodable {
        var detail: String?
    }

    // MARK: - Answers

    private static func expectSuccess(_ answer: VivaCloudAnswer, call: VivaCloudCall, credentials: String)
        throws(VivaCloudError)
    {
        switch answer.status {
        case 200...299:
            return
        case 401, 403:
            throw VivaCloudError(
                .unauthorized, "\(call.name): Viva refused \(credentials) (\(answer.status))", httpStatus: answer.status
            )
        case 404:
            throw VivaCloudError(.notFound, "\(call.name): Viva knows no such record (404)", httpStatus: 404)
        case 429:
            throw VivaCloudError(.rateLimited, "\(call.name): Viva answered 429 (too many requests)", httpStatus: 429)
        case 500...599:
            throw VivaCloudError(
                .serverError,
                call.repeatable
                    ? "\(call.name): Viva answered \(answer.status); try again later"
                    : "\(call.name): Viva answered \(answer.status): it may or may not have been applied; ask for its session before sending it again",
                httpStatus: answer.status)
        default:
            throw VivaCloudError(
                .rejected, "\(call.name): Viva refused the request (\(answer.status))", httpStatus: answer.status)
        }
    }

    private static func decode<T: Decodable>(_ answer: VivaCloudAnswer, call: VivaCloudCall) throws(VivaCloudError) -> T
    {
        do {
            return try JSONDecoder().decode(T.self, from: Data(answer.body))
        } catch {
            throw VivaCloudError(
                .invalidResponse, "\(call.name): cannot read Viva's answer (\(answer.body.count) bytes) as \(T.self)",
                httpStatus: answer.status)
        }
    }

    // MARK: - Text

    private static func basic(_ user: String, _ password: Secret) -> String {
        "Basic " + Data("\(user):\(password.value)".utf8).base64EncodedString()
    }

    private static func isDay(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        return bytes.enumerated().allSatisfy { index, byte in index == 4 || index == 7 || (48...57).contains(byte) }
    }

    private static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))
            ?? text
    }

    private static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(
            withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+#")))
            ?? text
    }
}
