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

/// When an `unknown` command is looked up in Viva's records again: after ``retryDelaysMs`` in turn, then
/// every ``thenEveryMs``, until ``giveUpAfterMs`` after it became unknown.
public struct VivaLookupSchedule: Sendable, Equatable {
    /// The waits after the first look-up, in order.
    public var retryDelaysMs: [Int64]
    /// The wait once ``retryDelaysMs`` are used up.
    public var thenEveryMs: Int64
    /// How long after it became unknown a command is looked up at all.
    public var giveUpAfterMs: Int64

    /// Creates a schedule.
    public init(retryDelaysMs: [Int64], thenEveryMs: Int64, giveUpAfterMs: Int64) {
        self.retryDelaysMs = retryDelaysMs
        self.thenEveryMs = thenEveryMs
        self.giveUpAfterMs = giveUpAfterMs
    }

    /// 2, 10 and 30 minutes, then hourly, for 48 hours (docs/CLOUD.md).
    public static let standard = VivaLookupSchedule(
        retryDelaysMs: [120_000, 600_000, 1_800_000], thenEveryMs: 3_600_000, giveUpAfterMs: 48 * 3_600_000)

    /// The wait before look-up number `attempt + 1`, after `attempt` look-ups (1 or more).
    public func delayMs(after attempt: Int) -> Int64 {
        attempt - 1 < retryDelaysMs.count ? retryDelaysMs[max(0, attempt - 1)] : thenEveryMs
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
