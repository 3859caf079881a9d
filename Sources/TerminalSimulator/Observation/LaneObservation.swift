/// What the outside can see of one lane, as of the loop's last flush.
struct LaneObservation: Sendable {
    var endpoint: String?
    var linkUp = false
    /// The last URLs received in `open` frames (at most the retention limit).
    var urls: [String] = []
    /// How many URLs were ever received.
    var urlCount = 0
    var phase: TransactionPhase = .idle
    var helloCount = 0
    /// How many frames were ignored because their link's bridge had a lower epoch than one seen.
    var staleFrameCount = 0
    /// How many `foreground` requests brought the app to the front (v1.1).
    var foregroundCount = 0
    var history: TransactionBook
    var batches = BatchBook()

    init(historyLimit: Int) {
        history = TransactionBook(limit: historyLimit, indexed: false)
    }
}

/// Changes to one lane's observation gathered during one turn of the loop, applied in one go.
struct LaneDelta {
    var urls: [String] = []
    var phase: TransactionPhase?
    var hellos = 0
    var staleFrames = 0
    var foregrounds = 0
    var resetHellos = false
    var records: [SimulatedTransaction] = []
    var updates: [(index: Int, record: SimulatedTransaction)] = []
    var batches: BatchBook?
    var linkUp: Bool?
    var endpoint: String?

    var isEmpty: Bool {
        urls.isEmpty && phase == nil && hellos == 0 && staleFrames == 0 && foregrounds == 0 && !resetHellos
            && records.isEmpty
            && updates.isEmpty
            && batches == nil && linkUp == nil && endpoint == nil
    }
}
