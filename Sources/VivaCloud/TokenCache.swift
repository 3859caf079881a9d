import VivaCloudModels

/// The OAuth2 access token, cached until shortly before it expires; one fetch at a time (callers that need
/// a token while one is being fetched wait for that fetch).
actor TokenCache {
    /// A token and when to stop using it.
    struct Entry: Sendable {
        var token: Secret
        var renewAt: ContinuousClock.Instant
    }

    private let clock = ContinuousClock()
    private let fetch: @Sendable () async throws(VivaCloudError) -> AccessTokenResponse
    private var entry: Entry?
    private var inFlight: Task<Entry, any Error>?
    /// Where the fetch runs (nil: the cooperative pool).
    private let executor: (any TaskExecutor)?

    /// `fetch` asks Viva for a new token, on `executor` when given.
    init(
        executor: (any TaskExecutor)? = nil,
        fetch: @escaping @Sendable () async throws(VivaCloudError) -> AccessTokenResponse
    ) {
        self.executor = executor
        self.fetch = fetch
    }

    /// The cached token, or a new one when there is none, it is due for renewal, or it is `stale` (the one
    /// a 401 just refused: a newer one fetched meanwhile is returned as is).
    func token(replacing stale: Secret? = nil) async throws(VivaCloudError) -> Secret {
        if let entry, entry.token != stale, clock.now < entry.renewAt { return entry.token }
        let task: Task<Entry, any Error>
        if let inFlight {
            task = inFlight
        } else {
            let fetch = self.fetch
            let clock = self.clock
            task = Task(executorPreference: executor) {
                let started = clock.now
                let response = try await fetch()
                return Entry(token: Secret(response.accessToken), renewAt: started + Self.usableFor(response.expiresIn))
            }
            inFlight = task
        }
        do {
            let fresh = try await task.value
            if inFlight == task {
                inFlight = nil
                entry = fresh
            }
            return fresh.token
        } catch {
            if inFlight == task { inFlight = nil }
            if let error = error as? VivaCloudError { throw error }
            throw VivaCloudError(.shutDown, "the token fetch was cancelled")
        }
    }

    /// How long a token that lives `expiresIn` seconds is used: until a minute before it expires, or half
    /// its life when that is shorter (a token with no lifetime is used once).
    static func usableFor(_ expiresIn: Int?) -> Duration {
        guard let expiresIn, expiresIn > 0 else { return .zero }
        let life = Duration.seconds(expiresIn)
        return life - min(.seconds(60), life / 2)
    }
}
