import Foundation

/// What tests and tools can see of the lanes, and waiting for it (no sleeps: a condition variable).
extension Simulator {
    /// The endpoint lane `lane` is bound at (with its real port), once started.
    public func endpoint(of lane: String) -> String? {
        observations.read(lane) { $0.endpoint } ?? nil
    }

    /// Whether lane `lane`'s socket is bound (its link is not dropped).
    public func isLinkUp(lane: String) -> Bool {
        observations.read(lane) { $0.linkUp } ?? false
    }

    /// Every URL lane `lane` received in an `open` frame, in order (the last `historyLimit` at least).
    public func openedURLs(lane: String) -> [String] {
        observations.read(lane) { $0.urls } ?? []
    }

    /// How many URLs lane `lane` ever received in `open` frames.
    public func openedURLCount(lane: String) -> Int {
        observations.read(lane) { $0.urlCount } ?? 0
    }

    /// The phase lane `lane`'s app is in.
    public func phase(lane: String) -> TransactionPhase {
        observations.read(lane) { $0.phase } ?? .idle
    }

    /// How many `foreground` requests (v1.1) brought lane `lane`'s app to the front; they get no callback.
    public func foregroundCount(lane: String) -> Int {
        observations.read(lane) { $0.foregroundCount } ?? 0
    }

    /// How many `hello`s the bridge sent on lane `lane` since its link was (re)bound.
    public func helloCount(lane: String) -> Int {
        observations.read(lane) { $0.helloCount } ?? 0
    }

    /// How many frames lane `lane`'s relay ignored because they came from a bridge whose `hello` carried a
    /// lower epoch than one it had seen (PROTOCOL.md §5).
    public func staleFrameCount(lane: String) -> Int {
        observations.read(lane) { $0.staleFrameCount } ?? 0
    }

    /// Lane `lane`'s completed transactions, oldest first (the last `historyLimit` at least).
    public func history(lane: String) -> [SimulatedTransaction] {
        observations.read(lane) { $0.history.records } ?? []
    }

    /// Lane `lane`'s open batch, or nil when none is open (one open for 48 hours on the clock is closed).
    public func openBatch(lane: String) -> (name: String, id: String, openedAt: Date)? {
        let now = clockNow()
        guard let batch = observations.read(lane, { $0.batches.open }) ?? nil, !batch.isExpired(at: now) else {
            return nil
        }
        return (batch.name, batch.id, batch.openedAt)
    }

    /// Lane `lane`'s batches (the last ten closed, then the open one), oldest first; a batch open for 48 hours
    /// on the clock shows as closed (`expired`).
    public func batches(lane: String) -> [SimulatedBatch] {
        guard var book = observations.read(lane, { $0.batches }) else { return [] }
        book.expire(at: clockNow())
        return book.all
    }

    /// Blocks until lane `lane` received at least `count` URLs in `open` frames; false on timeout.
    public func waitForURLs(lane: String, count: Int, timeout: Duration) -> Bool {
        observations.wait(lane, timeout: timeout) { $0.urlCount >= count }
    }

    /// Blocks until lane `lane`'s app is in `phase`; false on timeout.
    ///
    /// Phases of 0 ms are entered and left within one turn of the loop and may never be seen.
    public func waitForPhase(lane: String, _ phase: TransactionPhase, timeout: Duration) -> Bool {
        observations.wait(lane, timeout: timeout) { $0.phase == phase }
    }

    /// Blocks until the bridge said hello on lane `lane` since its link was (re)bound; false on timeout.
    public func waitForHello(lane: String, timeout: Duration) -> Bool {
        waitForHello(lane: lane, count: 1, timeout: timeout)
    }

    /// Blocks until the bridge said hello `count` times on lane `lane` since its link was (re)bound.
    public func waitForHello(lane: String, count: Int, timeout: Duration) -> Bool {
        observations.wait(lane, timeout: timeout) { $0.helloCount >= count }
    }

    /// Blocks until lane `lane`'s relay ignored at least `count` frames of a bridge with a lower epoch.
    public func waitForStaleFrames(lane: String, count: Int, timeout: Duration) -> Bool {
        observations.wait(lane, timeout: timeout) { $0.staleFrameCount >= count }
    }

    /// Blocks until lane `lane` has at least `count` completed transactions in its history.
    public func waitForHistory(lane: String, count: Int, timeout: Duration) -> Bool {
        observations.wait(lane, timeout: timeout) { $0.history.totalCount >= count }
    }
}
