import InterApp

extension Correlator {
    /// The most orphan callbacks one lane journals and publishes a second; past it they are counted
    /// (`faults.orphansSuppressed`) and one summary row a second is journaled, so a relay cannot fill the
    /// disk (50,000 orphans used to add 44 MB in 3.4 s).
    static let orphansPerSecond = 10

    /// Whether one more orphan of `lane` is journaled and published this second.
    func admitOrphan(_ lane: LaneState) -> Bool {
        let (admitted, heldBack) = lane.orphans.admit(at: nowMs())
        summarizeSuppressedOrphans(heldBack, lane: lane)
        if !admitted { lane.faults.orphansSuppressed += 1 }
        return admitted
    }

    /// Journals that `suppressed` orphans of `lane` were counted and not journaled in the window that ended.
    func summarizeSuppressedOrphans(_ suppressed: Int, lane: LaneState) {
        guard suppressed > 0 else { return }
        logger.notice(
            "orphan callbacks over the allowance were counted, not journaled",
            metadata: ["lane": "\(lane.id)", "count": "\(suppressed)", "perSecond": "\(Self.orphansPerSecond)"])
        var fields = JSONObject()
        fields["suppressedOrphans"] = .number(JSONNumber(suppressed))
        emit(
            .journal(
                .callback(
                    lane: lane.id, atMs: nowMs(), fields: JSONValue.object(fields).serializedString, matchedId: nil,
                    commandSeq: nil,
                    disposition: .orphansSuppressed)))
    }
}
