import InterApp

extension Correlator {
    /// The most orphan callbacks one lane journals and publishes a second; past it they are counted
    /// (`faults.orphansSuppressed`) and one summary row a second is journaled, so a relay cannot fill the
    /// disk (50,000 orphans used to add 44 MB in 3.4 s).
    static let orphansPerSecond = 10

    /// Whether one more orphan of `lane` is journaled and published this second.
    func admitOrphan(_ lane: LaneState) -> Bool {
        let now = nowMs()
        if now - lane.orphanWindow.startMs >= 1000 {
            summarizeSuppressedOrphans(lane)
            lane.orphanWindow = (now, 0, 0)
        }
        guard lane.orphanWindow.admitted < Self.orphansPerSecond else {
            lane.orphanWindow.suppressed += 1
            lane.faults.orphansSuppressed += 1
            return false
        }
        lane.orphanWindow.admitted += 1
        return true
    }

    /// Journals how many orphans of `lane` were counted and not journaled in the window that ends.
    func summarizeSuppressedOrphans(_ lane: LaneState) {
        let suppressed = lane.orphanWindow.suppressed
        guard suppressed > 0 else { return }
        lane.orphanWindow.suppressed = 0
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
                    disposition: "orphans-suppressed")))
    }
}
