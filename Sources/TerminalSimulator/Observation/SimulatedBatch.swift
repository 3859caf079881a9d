import Foundation

/// A batch (a group of transactions) of a simulated app.
public struct SimulatedBatch: Sendable, Equatable {
    /// Why a batch was closed.
    public enum CloseReason: String, Sendable {
        /// A `batch` request with `command=close`.
        case command
        /// A newer batch was opened while this one was open.
        case replaced
        /// It had been open for 48 hours.
        case expired
    }

    /// The batch name (given, or made up by the app).
    public var name: String
    /// The batch UUID, as the app writes it.
    public var id: String
    /// When it was opened, on the simulator's clock.
    public var openedAt: Date
    /// When it was closed, or nil while open.
    public var closedAt: Date?
    /// Why it was closed, or nil while open.
    public var closeReason: CloseReason?

    /// How long a batch stays open before the app closes it.
    public static let lifetime: TimeInterval = 48 * 3600

    /// Creates a batch record.
    public init(name: String, id: String, openedAt: Date, closedAt: Date? = nil, closeReason: CloseReason? = nil) {
        self.name = name
        self.id = id
        self.openedAt = openedAt
        self.closedAt = closedAt
        self.closeReason = closeReason
    }

    /// Whether the batch is past its 48 hours at `now`.
    func isExpired(at now: Date) -> Bool {
        now.timeIntervalSince(openedAt) >= SimulatedBatch.lifetime
    }
}
