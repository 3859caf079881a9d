/// What one lane's relay sent that the bridge refused to act on, counted per lane. The counts appear
/// in the `lanes` answer (`faults`), so an operator can see a misbehaving relay without reading logs.
struct LaneFaults: Equatable {
    /// `opened` or `not_opened` naming a command that is not outstanding on this lane (another lane's,
    /// a finished one, or none): never applied, since a relay decides only its own lane's commands.
    var foreignRefs = 0
    /// Frames that contradict what the relay said before (`not_opened` after `opened`): not applied.
    var contradictions = 0
    /// Messages that are not messages of the terminal link (unknown kind, missing frames).
    var malformed = 0
    /// Times the link was dropped by ZeroMQ (a protocol error such as an over-size frame, or the relay
    /// going away) and made anew.
    var linkResets = 0
    /// Connections to the relay's endpoint that failed before the link came up: a handshake that failed
    /// or timed out (something other than a relay answers there, or a relay holding another key).
    var handshakeFailures = 0
    /// Successful results whose approved amount or tip differs from the request.
    var amountMismatches = 0
    /// Orphan callbacks past the per-second allowance: counted, not journaled one by one.
    var orphansSuppressed = 0

    /// The counts as the `lanes` answer carries them.
    var json: [(String, Int)] {
        [
            ("foreignRefs", foreignRefs), ("contradictions", contradictions), ("malformed", malformed),
            ("linkResets", linkResets), ("handshakeFailures", handshakeFailures),
            ("amountMismatches", amountMismatches),
            ("orphansSuppressed", orphansSuppressed),
        ]
    }
}
