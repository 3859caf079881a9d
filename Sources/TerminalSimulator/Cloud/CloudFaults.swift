/// Faults of the simulated back office, each off by default; the rates are drawn from the back office's
/// seeded generator, so a seed replays the same faults for the same requests.
public struct CloudFaults: Sendable, Equatable {
    /// The lifetime the token call announces (`expires_in`), in seconds.
    public var tokenLifetimeSeconds = 3600
    /// When set, every token stops working this long after it was issued, whatever it announced (a token
    /// that expires early: the next call gets 401).
    public var tokenExpiresAfterMs: Int?
    /// The share of requests answered 500 (0 to 1).
    public var serverErrorRate = 0.0
    /// The share of requests answered 429 (0 to 1).
    public var tooManyRequestsRate = 0.0
    /// The `Retry-After` (seconds) sent with a 429 or a 503; nil sends none.
    public var retryAfterSeconds: Int? = 1
    /// How long every answer waits before it is sent.
    public var latencyMs = 0
    /// How long a new transaction stays out of the look-ups (a transaction that appears only later).
    public var appearAfterMs = 0
    /// Statuses (429, 500, 503...) answered, in order, to the next requests before anything else: a
    /// scripted fault, consumed as it is used.
    public var script: [Int] = []
    /// How long a Cloud Terminal session runs (202) before its result (the cardholder at the terminal).
    public var sessionMs = 200
    /// Sessions never leave 202 (a session that never reached the device), until deleted.
    public var sessionsNeverFinish = false
    /// The next this many session POSTs are applied (their session starts) but answered 502: the answer is lost.
    public var lostPostAnswers = 0
    /// Approved sessions are recorded `E` in the ledger: the session disagrees with its transaction.
    public var sessionsDisagree = false

    /// No faults.
    public init() {}
}

/// The credentials the simulated back office accepts.
public struct CloudCredentials: Sendable, Equatable {
    /// The POS APIs credentials' client id and secret (`POST /connect/token`).
    public var clientId: String
    public var clientSecret: String
    /// The Merchant ID and API key (Basic auth of `GET /api/transactions`).
    public var merchantId: String
    public var apiKey: String

    /// Creates the credentials.
    public init(clientId: String, clientSecret: String, merchantId: String, apiKey: String) {
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.merchantId = merchantId
        self.apiKey = apiKey
    }

    /// The demo credentials of the embedded default and `vivabridge simulate --cloud`: client `demo-pos` with
    /// secret `DEMO-CLIENT-SECRET`, merchant `demo-merchant` with API key `DEMO-API-KEY`.
    public static let demo = CloudCredentials(
        clientId: "demo-pos", clientSecret: "DEMO-CLIENT-SECRET", merchantId: "demo-merchant", apiKey: "DEMO-API-KEY")
}
