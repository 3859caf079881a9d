import VivaCloudModels

/// The client's own bound on its request rate: a token bucket of `burst` requests refilled at `rate` a
/// second. ``acquire()`` waits for a token, so that bursts of look-ups never hammer Viva.
actor RequestRateLimiter {
    private let rate: Double
    private let capacity: Double
    private var tokens: Double
    private var refilledAt: ContinuousClock.Instant
    private let clock = ContinuousClock()

    init(rate: Double, burst: Int) {
        self.rate = rate
        self.capacity = Double(burst)
        self.tokens = Double(burst)
        self.refilledAt = clock.now
    }

    /// Takes one token, waiting until there is one; throws only when the task is cancelled.
    func acquire() async throws {
        while true {
            refill()
            if tokens >= 1 {
                tokens -= 1
                return
            }
            let wait = (1 - tokens) / rate
            try await Task.sleep(for: .milliseconds(max(1, Int((wait * 1000).rounded(.up)))))
        }
    }

    private func refill() {
        let now = clock.now
        let elapsed = refilledAt.duration(to: now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        tokens = min(capacity, tokens + seconds * rate)
        refilledAt = now
    }
}
