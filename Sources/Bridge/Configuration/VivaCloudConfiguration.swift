import BridgeCore
import BridgeJournal
import VivaCloud

/// `vivaCloud:`: Viva's cloud as the bridge's second source of truth (docs/CLOUD.md). With it, a money
/// command left `unknown` is looked up in Viva's transaction records; without it nothing calls Viva.
///
/// The secrets are read from their files at load (each the owner's alone, mode 0600) and never printed.
public struct VivaCloudConfiguration: Sendable, Equatable {
    /// `environment:`, when the URLs are Viva's for it; nil when the three URLs were given.
    public var environment: VivaCloudEnvironment?
    /// The three base URLs: the environment's, or those given.
    public var endpoints: VivaCloudEndpoints
    /// The POS APIs credentials' client id.
    public var clientId: String
    /// Where the client secret was read from.
    public var clientSecretFile: String
    /// The POS APIs credentials' client secret (prints `<redacted>`).
    public var clientSecret: Secret
    /// The Merchant ID (Basic auth of the day's transactions).
    public var merchantId: String
    /// Where the API key was read from.
    public var apiKeyFile: String
    /// The API key (prints `<redacted>`).
    public var apiKey: Secret
    /// How long a command stays `unknown` before Viva's records are asked, in milliseconds (1,000 or more).
    public var resolveUnknownAfterMs = VivaCloudConfiguration.defaultResolveUnknownAfterMs
    /// How often a cloud session is asked for its result, in milliseconds (200 or more).
    public var pollMs = VivaCloudConfiguration.defaultPollMs
    /// The most requests a second the bridge sends Viva (Viva publishes no limit; bursts of twice it).
    public var requestsPerSecond = VivaCloudConfiguration.defaultRequestsPerSecond
    /// When an unknown is looked up again and for how long (not a key: tests shorten it).
    public var lookupSchedule = VivaLookupSchedule.standard

    /// `resolveUnknownAfterMs` when the file does not set it: two minutes.
    public static let defaultResolveUnknownAfterMs = 120_000
    /// `pollMs` when the file does not set it.
    public static let defaultPollMs = 1000
    /// `requestsPerSecond` when the file does not set it.
    public static let defaultRequestsPerSecond = 5

    /// Creates a configuration from values already read.
    public init(
        environment: VivaCloudEnvironment?, endpoints: VivaCloudEndpoints, clientId: String,
        clientSecretFile: String, clientSecret: Secret, merchantId: String, apiKeyFile: String, apiKey: Secret
    ) {
        self.environment = environment
        self.endpoints = endpoints
        self.clientId = clientId
        self.clientSecretFile = clientSecretFile
        self.clientSecret = clientSecret
        self.merchantId = merchantId
        self.apiKeyFile = apiKeyFile
        self.apiKey = apiKey
    }

    /// The client's settings (the URLs were checked at load, by the client's own rule).
    public func clientSettings() throws(VivaCloudError) -> VivaCloudSettings {
        var settings = try VivaCloudSettings(
            endpoints: endpoints, clientId: clientId, clientSecret: clientSecret, merchantId: merchantId,
            apiKey: apiKey)
        settings.requestsPerSecond = Double(requestsPerSecond)
        settings.burst = requestsPerSecond * 2
        return settings
    }

    /// One line for `check` and the logs: where it calls, and the files; never a secret.
    public var summary: String {
        let place = environment.map { "Viva's \($0.rawValue) environment" } ?? "\(endpoints.api)"
        return "vivaCloud: \(place), merchant \(merchantId), unknown results looked up after "
            + "\(resolveUnknownAfterMs) ms (secrets: \(clientSecretFile), \(apiKeyFile))"
    }
}

extension VivaCloudConfiguration {
    /// Viva's transactions of `days` (`YYYY-MM-DD`), one list call a day, with a client made for it and always
    /// shut down: for the journal tools and a start, not for the running bridge (``VivaRecords``).
    public func transactions(onDays days: [String]) async throws -> [DayTransaction] {
        let client = try VivaCloudClient(settings: try clientSettings())
        do {
            var all: [DayTransaction] = []
            for day in days { all += try await client.transactions(onDay: day) }
            await client.shutdown()
            return all
        } catch {
            await client.shutdown()
            throw error
        }
    }
}
