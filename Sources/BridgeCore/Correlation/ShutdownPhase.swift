/// How far the bridge has gone toward stopping (docs/OPERATIONS.md, "Signals and exit codes"). Each case
/// carries only the data valid in it, and each event is one mutating method, in the style of swift-nio's
/// state machines. The correlator owns it (its refusals and look-ups read it); the loop moves it.
package enum ShutdownPhase: Equatable {
    /// Commands are taken.
    case running
    /// A graceful shutdown: terminal commands are refused `shutting_down` and no look-up starts; what is
    /// in flight goes on until it ends or the clock reaches `deadlineMs` (`shutdownGraceMs` after the ask).
    case draining(deadlineMs: Int64)
    /// The loop ends after this turn: a `stop` word came, or draining is over.
    case stopping

    /// A graceful shutdown was asked; returns whether draining begins now (it begins once, and never
    /// after a stop).
    mutating func drain(deadlineMs: Int64) -> Bool {
        guard case .running = self else { return false }
        self = .draining(deadlineMs: deadlineMs)
        return true
    }

    /// A `stop` word: the loop ends after this turn, whatever is in flight.
    mutating func stop() { self = .stopping }

    /// The end of a loop turn while draining: stops once nothing is `outstanding` or the clock passed the
    /// deadline; returns how many commands are left in flight when it stops then, nil otherwise.
    mutating func turnEnded(nowMs: Int64, outstanding: Int) -> Int? {
        guard case .draining(let deadlineMs) = self, outstanding == 0 || nowMs >= deadlineMs else { return nil }
        self = .stopping
        return outstanding
    }

    /// Whether terminal commands and look-ups are taken.
    var isRunning: Bool { self == .running }

    /// Whether the loop ends after this turn.
    var isStopping: Bool { self == .stopping }
}
