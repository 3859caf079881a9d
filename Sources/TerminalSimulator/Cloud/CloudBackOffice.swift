import Foundation
import Synchronization

/// The simulated back office of Viva's cloud: it answers Viva's look-up calls from one ``CloudLedger``.
///
/// - `POST /connect/token`: OAuth2 client credentials (Basic auth with the client id and secret), a token
///   with `expires_in`.
/// - `GET /api/transactions?date=YYYY-MM-DD`: Basic auth with the Merchant ID and API key; the day's
///   transactions (`Transactions[]`, amounts in euros).
/// - `GET /checkout/v2/transactions/{id}`: Bearer; one transaction (amount in euros).
/// - `POST /ecr/v1/transactions:sale` (and `:preauth-completion`, `:refund`, `:unreferenced-refund`, `:fast-refund`), `GET` and `DELETE /ecr/v1/sessions/{id}?cashRegisterId=`: Bearer;
///   the Cloud Terminal API's sessions (``CloudTerminalSessions``), written to the same ledger.
///
/// Faults (``CloudFaults``) can be set at any time. Pure logic behind a mutex; ``CloudBackOfficeServer``
/// serves it over HTTP on loopback.
public final class CloudBackOffice: Sendable {
    /// The ledger it answers from.
    public let ledger: CloudLedger
    private let credentials: CloudCredentials
    private let clock: any SimulatorClock
    private let state: Mutex<State>
    /// Told of every POST of a session that reached a session: a new one (Viva holds it from then on) or one posted
    /// again under a `sessionId` it already held (refused 409): one line each in `simulate --record`.
    private let sessionPosted: RequestObserver?

    private struct State {
        var faults: CloudFaults
        var random: SplitMix64
        /// Token → when it stops working.
        var tokens: [String: Date] = [:]
        var issued: [String] = []
        var log: [CloudRequestRecord] = []
        var sessions = CloudTerminalSessions()
    }

    /// Creates a back office answering from `ledger`.
    /// `sessionPosted` is told of each POST that started a session or repeated one, as an
    /// ``ObservedRequest`` of lane `cloud:<terminalId>` and reference `merchantReference`, whose URL is
    /// `viva-cloud:transactions:<call>?sessionId=…&clientTransactionId=…` (`&repeated=true` for a repeat).
    public init(
        credentials: CloudCredentials, ledger: CloudLedger, faults: CloudFaults = CloudFaults(), seed: UInt64 = 1,
        clock: any SimulatorClock = SystemSimulatorClock(), sessionPosted: RequestObserver? = nil
    ) {
        self.sessionPosted = sessionPosted
        self.credentials = credentials
        self.ledger = ledger
        self.clock = clock
        self.state = Mutex(State(faults: faults, random: SplitMix64(seed: seed, lane: "viva-cloud-back-office")))
    }

    // MARK: - Control

    /// The faults in force.
    public var faults: CloudFaults {
        get { state.withLock { $0.faults } }
        set { state.withLock { $0.faults = newValue } }
    }

    /// Makes every token issued so far stop working (the next call with one gets 401).
    public func revokeTokens() {
        state.withLock { $0.tokens.removeAll() }
    }

    /// Every token issued, oldest first (for tests that check no token leaks).
    public var issuedTokens: [String] { state.withLock { $0.issued } }

    /// Every request answered, oldest first.
    public var requests: [CloudRequestRecord] { state.withLock { $0.log } }

    /// How many requests to `path` were answered with `status` (any status when nil).
    public func count(path: String, status: Int? = nil) -> Int {
        state.withLock { state in state.log.count { $0.path == path && (status == nil || $0.status == status) } }
    }

    // MARK: - Answers

    /// Answers one request.
    public func respond(_ request: CloudRequest) -> CloudResponse {
        let now = clock.now()
        var response = state.withLock { state in
            if let fault = Self.fault(&state) { return fault }
            return answer(request, now: now, state: &state)
        }
        state.withLock { state in
            response.delayMs = state.faults.latencyMs
            state.log.append(
                CloudRequestRecord(
                    method: request.method, path: request.path, status: response.status,
                    body: request.path.hasPrefix("/ecr/") ? request.body : []))
        }
        return response
    }

    /// A scripted or drawn fault for the next request, if any.
    private static func fault(_ state: inout State) -> CloudResponse? {
        var status: Int?
        if !state.faults.script.isEmpty {
            status = state.faults.script.removeFirst()
        } else if state.faults.tooManyRequestsRate > 0, draw(&state.random) < state.faults.tooManyRequestsRate {
            status = 429
        } else if state.faults.serverErrorRate > 0, draw(&state.random) < state.faults.serverErrorRate {
            status = 500
        }
        guard let status else { return nil }
        var response = CloudJSON.response(status, ["message": "simulated fault"])
        if status == 429 || status == 503, let seconds = state.faults.retryAfterSeconds {
            response.headers["Retry-After"] = String(seconds)
        }
        return response
    }

    private static func draw(_ random: inout SplitMix64) -> Double {
        Double(random.next() >> 11) / Double(1 << 53)
    }

    private func answer(_ request: CloudRequest, now: Date, state: inout State) -> CloudResponse {
        let path = request.path
        switch (request.method, path) {
        case ("POST", "/connect/token"):
            return token(request, now: now, state: &state)
        case ("GET", "/api/transactions"):
            guard hasBasicAuth(request, user: credentials.merchantId, password: credentials.apiKey) else {
                return CloudJSON.response(401, ["message": "Authorization has been denied for this request."])
            }
            guard let day = request.query["date"], day.utf8.count == 10 else {
                return CloudJSON.response(400, ["ErrorCode": 400, "ErrorText": "date (YYYY-MM-DD) is required"])
            }
            let visible = ledger.entries(onDay: day).filter { isVisible($0, now: now, faults: state.faults) }
            return CloudJSON.dayList(visible)
        case ("GET", _) where path.hasPrefix("/checkout/v2/transactions/"):
            guard bearerIsValid(request, now: now, state: state) else {
                return CloudJSON.response(401, ["detail": "Could not validate credentials"])
            }
            let id = String(path.dropFirst("/checkout/v2/transactions/".count))
            guard let entry = ledger.entry(transactionId: id), isVisible(entry, now: now, faults: state.faults) else {
                return CloudJSON.response(404, ["message": "Transaction not found"])
            }
            return CloudJSON.transaction(entry)
        case _
        where path.hasPrefix(CloudTerminalSessions.transactionsPath) || path.hasPrefix(CloudTerminalSessions.path):
            guard bearerIsValid(request, now: now, state: state) else {
                return CloudJSON.response(401, ["detail": "Could not validate credentials"])
            }
            return session(request, now: now, state: &state)
        default:
            return CloudJSON.response(404, ["message": "no such call in the simulated back office"])
        }
    }

    private func session(_ request: CloudRequest, now: Date, state: inout State) -> CloudResponse {
        let id = String(request.path.dropFirst(CloudTerminalSessions.path.count))
        let cashRegisterId = request.query["cashRegisterId"]
        let call = CloudTerminalSessions.call(ofPath: request.path)
        switch (request.method, call) {
        case ("POST", let call?):
            let response = state.sessions.post(call, request.body, now: now, faults: &state.faults, ledger: ledger)
            if let sessionPosted, response.status != 400,
                let sale = CloudTerminalSessions.Sale(call: call, json: request.body)
            {
                let reference = sale.merchantReference ?? "-"
                let url =
                    "viva-cloud:transactions:\(call.rawValue)?sessionId=\(sale.sessionId)&clientTransactionId=\(reference)"
                    + (response.status == 409 ? "&repeated=true" : "")
                sessionPosted(ObservedRequest(lane: "cloud:\(sale.terminalId)", reference: reference, url: url))
            }
            return response
        case ("GET", nil):
            return state.sessions.get(
                id, cashRegisterId: cashRegisterId, now: now, faults: state.faults, ledger: ledger)
        case ("DELETE", nil): return state.sessions.delete(id, cashRegisterId: cashRegisterId)
        default: return CloudJSON.response(405, ["detail": "Method Not Allowed"])
        }
    }

    /// Sale POSTs for a session the back office already held: a bridge that posted one session twice.
    public var repeatedSessionPosts: Int { state.withLock { $0.sessions.repeatedPosts } }

    private func token(_ request: CloudRequest, now: Date, state: inout State) -> CloudResponse {
        let form = String(decoding: request.body, as: UTF8.self)
        guard form.split(separator: "&").contains("grant_type=client_credentials") else {
            return CloudJSON.response(400, ["error": "unsupported_grant_type"])
        }
        guard hasBasicAuth(request, user: credentials.clientId, password: credentials.clientSecret) else {
            return CloudJSON.response(400, ["error": "invalid_client"])
        }
        let token = "sim" + state.random.uuid().replacingOccurrences(of: "-", with: "")
        let lifetime = state.faults.tokenLifetimeSeconds
        let dies = state.faults.tokenExpiresAfterMs.map { Double($0) / 1000 } ?? Double(lifetime)
        state.tokens[token] = now.addingTimeInterval(dies)
        state.issued.append(token)
        return CloudJSON.response(
            200, ["access_token": token, "expires_in": lifetime, "token_type": "Bearer", "scope": "simulated"])
    }

    private func isVisible(_ entry: CloudLedgerEntry, now: Date, faults: CloudFaults) -> Bool {
        now.timeIntervalSince(entry.recordedAt) * 1000 >= Double(faults.appearAfterMs)
    }

    private func bearerIsValid(_ request: CloudRequest, now: Date, state: State) -> Bool {
        guard let value = request.headers["authorization"], value.hasPrefix("Bearer "),
            let dies = state.tokens[String(value.dropFirst(7))]
        else { return false }
        return now < dies
    }

    private func hasBasicAuth(_ request: CloudRequest, user: String, password: String) -> Bool {
        guard let value = request.headers["authorization"], value.hasPrefix("Basic "),
            let data = Data(base64Encoded: String(value.dropFirst(6)))
        else { return false }
        return String(data: data, encoding: .utf8) == "\(user):\(password)"
    }
}
