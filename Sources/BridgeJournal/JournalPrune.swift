import BridgeCore

/// `vivabridge journal prune`: removes old finished commands from a journal no bridge is using.
public enum JournalPrune {
    /// The commands prune may remove: finished, not `unknown`, last changed before the cutoff (`?1`).
    /// An outstanding command (state not `final`) or an `unknown` one is never removed, however old. The
    /// bridge's own retention (`journalRetentionDays`) removes by the same rule.
    package static let removable =
        "state = 'final' AND outcome IS NOT NULL AND outcome != 'unknown' AND updated_ms < ?1"

    /// The callbacks prune may remove (a condition on a row of `callbacks`): received before the cutoff (`?1`),
    /// unless the command they completed stays (outstanding, `unknown`, or changed since the cutoff). Callbacks
    /// that matched nothing go with their age too.
    package static let removableCallback = """
        callbacks.received_ms < ?1 AND NOT EXISTS (
            SELECT 1 FROM commands WHERE commands.seq = callbacks.command_seq AND NOT (\(removable)))
        """
}
