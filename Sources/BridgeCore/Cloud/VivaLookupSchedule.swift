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
