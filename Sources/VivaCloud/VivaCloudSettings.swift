import Foundation
import VivaCloudModels

/// What the client needs to call Viva's cloud: the three base URLs, the POS APIs credentials (client id and
/// secret: the OAuth2 token for `/checkout/v2` and `/ecr/v1`), the Merchant ID and API key (Basic auth of
/// the older `/api/transactions`), and the limits every call keeps.
///
/// Secrets come from files that must be the owner's alone (``Secret/read(file:key:)``); a plain `http://`
/// URL is refused unless it names a loopback address.
public struct VivaCloudSettings: Sendable {
    /// The three base URLs.
    public var endpoints: VivaCloudEndpoints
    /// The POS APIs credentials' client id.
    public var clientId: String
    /// The POS APIs credentials' client secret.
    public var clientSecret: Secret
    /// The Merchant ID (Basic auth user of the older API).
    public var merchantId: String
    /// The API key (Basic auth password of the older API).
    public var apiKey: Secret
    /// How long one HTTP exchange may take, connection included.
    public var timeout: Duration = .seconds(10)
    /// How many times a call is sent at most when Viva answers 429 or 5xx (or a call that is safe to repeat
    /// fails to connect), the first included.
    public var maxAttempts = 4
    /// The first backoff after a 429 or 5xx with no `Retry-After`; it doubles with each attempt.
    public var initialBackoff: Duration = .milliseconds(500)
    /// The longest wait between two attempts, whatever `Retry-After` asks.
    public var maxBackoff: Duration = .seconds(30)
    /// The client's own bound on its request rate (Viva publishes none): requests a second, on average.
    public var requestsPerSecond = 5.0
    /// How many requests may go at once before the rate applies.
    public var burst = 10

    /// Creates settings from values already read; checks the URLs.
    public init(
        endpoints: VivaCloudEndpoints, clientId: String, clientSecret: Secret, merchantId: String, apiKey: Secret
    ) throws(VivaCloudError) {
        try URLPolicy.check(endpoints.accounts, key: "accountsURL")
        try URLPolicy.check(endpoints.api, key: "apiURL")
        try URLPolicy.check(endpoints.legacy, key: "legacyURL")
        guard !clientId.isEmpty else { throw VivaCloudError(.invalidSettings, "clientId: must not be empty") }
        guard !merchantId.isEmpty else { throw VivaCloudError(.invalidSettings, "merchantId: must not be empty") }
        self.endpoints = endpoints
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.merchantId = merchantId
        self.apiKey = apiKey
    }

    /// Creates settings with the secrets read from their files (`clientSecretFile`, `apiKeyFile`), each of
    /// which must be mode 0600 or stricter.
    public init(
        endpoints: VivaCloudEndpoints, clientId: String, clientSecretFile: String, merchantId: String,
        apiKeyFile: String
    ) throws(VivaCloudError) {
        try self.init(
            endpoints: endpoints, clientId: clientId,
            clientSecret: try Secret.read(file: clientSecretFile, key: "clientSecretFile"), merchantId: merchantId,
            apiKey: try Secret.read(file: apiKeyFile, key: "apiKeyFile"))
    }

    /// Checks the limits; the client calls it before its first request.
    func validate() throws(VivaCloudError) {
        guard timeout > .zero else { throw VivaCloudError(.invalidSettings, "timeout: must be positive") }
        guard maxAttempts >= 1 else { throw VivaCloudError(.invalidSettings, "maxAttempts: must be 1 or more") }
        guard requestsPerSecond > 0, burst >= 1 else {
            throw VivaCloudError(.invalidSettings, "requestsPerSecond and burst: must be positive")
        }
    }
}
