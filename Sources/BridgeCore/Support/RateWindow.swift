/// At most ``limit`` of something let through in a window of ``length``; the rest are held back and
/// counted, for one summary. A window starts with the first one after the last window ended, so a quiet
/// spell costs nothing. The one rate rule of the bridge: orphan callbacks a lane journals, refused peers and
/// undelivered replies the log names.
package struct RateWindow: Sendable {
    /// How many are let through in one window.
    let limit: Int
    /// How long a window lasts, in the unit of the times given (milliseconds, in the bridge).
    let length: Int64
    /// When the current window started.
    private(set) var start: Int64 = 0
    /// How many the current window let through.
    private(set) var admitted = 0
    /// How many were held back and not yet handed back by ``takeSuppressed()`` or ``admit(at:)``.
    package private(set) var suppressed = 0

    package init(limit: Int, length: Int64) {
        self.limit = limit
        self.length = length
    }

    /// Whether the current window is over at `now`.
    package func isOver(at now: Int64) -> Bool { now - start >= length }

    /// Hands back how many were held back since the last time, for a summary.
    package mutating func takeSuppressed() -> Int {
        defer { suppressed = 0 }
        return suppressed
    }

    /// Counts one more at `now`: when the current window is over a new one starts first, and how many the
    /// old one held back (not handed back yet) is returned for a summary; then it is let through when the
    /// window has room, and held back otherwise.
    package mutating func admit(at now: Int64) -> (admitted: Bool, heldBackBefore: Int) {
        var heldBackBefore = 0
        if isOver(at: now) {
            heldBackBefore = takeSuppressed()
            start = now
            admitted = 0
        }
        guard admitted < limit else {
            suppressed += 1
            return (false, heldBackBefore)
        }
        admitted += 1
        return (true, heldBackBefore)
    }
}
