import VivaCloudModels

/// One HTTP exchange with Viva, as the client's observer sees it (for metrics): never a header or a body.
public struct VivaCloudExchange: Sendable, Equatable {
    /// The call: `token`, `listTransactions`, `getTransaction`, `sale`, `getSession`, `abortSession`.
    public var call: String
    /// The HTTP status, or nil when no answer came (timeout, connection failure).
    public var httpStatus: Int?
    /// The attempt's number, from 1.
    public var attempt: Int
    /// How long the exchange took.
    public var duration: Duration
}

/// Told of every HTTP exchange the client makes, on the calling task; it must return quickly.
public typealias VivaCloudObserver = @Sendable (VivaCloudExchange) -> Void
