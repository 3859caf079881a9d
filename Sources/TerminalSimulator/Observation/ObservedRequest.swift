/// One `open` request as a relay received it: the lane, the bridge's reference and the request URL.
public struct ObservedRequest: Sendable, Equatable {
    /// The lane whose relay received the request.
    public let lane: String
    /// The reference the bridge sent with the URL (its command id).
    public let reference: String
    /// The request URL, exactly as received.
    public let url: String

    /// Creates an observed request.
    public init(lane: String, reference: String, url: String) {
        self.lane = lane
        self.reference = reference
        self.url = url
    }
}

/// Called on the simulator's loop thread with every request a relay receives, before the relay answers it.
public typealias RequestObserver = @Sendable (ObservedRequest) -> Void
