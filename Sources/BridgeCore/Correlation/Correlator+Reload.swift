import InterApp
import Logging

extension Correlator {
    /// Takes the lanes of a reloaded configuration (docs/OPERATIONS.md, "Reloading"). A lane added is
    /// linked at once. A lane removed takes no new command (`unknown_lane`, as if never configured) and a
    /// lane changed takes only aborts; either keeps its link until what is in flight on it ends (its
    /// result, its abort's answer, or its deadline's `unknown`), then the link is closed, and a changed
    /// lane's is made anew with its new settings.
    package func reloadLanes(_ wanted: [LaneConfiguration]) {
        let wantedIds = Set(wanted.map(\.id))
        for id in laneOrder where !wantedIds.contains(id) {
            guard let lane = lanes[id], !lane.isRemoved else { continue }
            ask(lane, .remove)
        }
        for configuration in wanted {
            guard let lane = lanes[configuration.id] else {
                add(configuration)
                continue
            }
            if configuration == lane.configuration {
                withdraw(lane)
            } else if lane.link.change != .replace(configuration) {
                ask(lane, .replace(configuration))
            }
        }
        laneOrder = wanted.map(\.id) + laneOrder.filter { !wantedIds.contains($0) }
        settleLanes()
    }

    /// The lanes commands may name: configured, and not removed by a reload.
    var configuredLanes: [String] { laneOrder.filter { lanes[$0].map { !$0.isRemoved } ?? false } }

    /// Asks the loop to close the link of every lane a reload removed or changed that is now idle.
    package func settleLanes() {
        guard !changingLanes.isEmpty else { return }
        for id in changingLanes.sorted() {
            guard let lane = lanes[id], lane.isIdle, lane.link.laneIdle() else { continue }
            emit(.closeLink(lane: id))
        }
    }

    /// The loop closed the link of `id` (after ``settleLanes()`` asked): the lane leaves, or takes its
    /// new settings and the loop makes its link anew.
    package func linkClosed(_ id: String) {
        guard let lane = lanes[id] else { return }
        changingLanes.remove(id)
        let closure = lane.link.linkClosed()
        let endpoint = lane.configuration.endpoint
        if closure.wasUp { publishLaneEvent(id, .disconnected(endpoint: endpoint)) }
        lane.relayHello = nil
        switch closure.then {
        case .remove?:
            lanes[id] = nil
            laneOrder.removeAll { $0 == id }
            logger.notice(
                "lane removed by the reload: its link is closed",
                metadata: ["lane": "\(id)", "endpoint": "\(endpoint)"])
            if !lane.pendingLookups.isEmpty {
                logger.notice(
                    "lane removed with unknown sales not looked up; they stay unknown (ask status)",
                    metadata: ["lane": "\(id)", "ids": "\(lane.pendingLookups.map(\.saleId).joined(separator: ","))"])
            }
            publishLaneEvent(id, .removed(endpoint: endpoint))
        case .replace(let configuration)?:
            if configuration.platform != lane.platform { lane.pendingLookups.removeAll() }
            lane.configuration = configuration
            logger.notice(
                "lane changed by the reload: its new settings apply, its link is made anew",
                metadata: ["lane": "\(id)", "endpoint": "\(configuration.endpoint)", "was": "\(endpoint)"])
            publishLaneEvent(
                id,
                .changed(
                    endpoint: configuration.endpoint, platform: configuration.platform,
                    transport: configuration.transport))
            emit(.openLink(configuration))
        case nil:
            emit(.openLink(lane.configuration))
        }
    }

    private func add(_ configuration: LaneConfiguration) {
        let id = configuration.id
        let lane = LaneState(configuration: configuration)
        do {
            lane.openBatch = try store.openBatches()[id]
        } catch {
            logger.error("journal read failed", metadata: ["lane": "\(id)", "error": "\(error)"])
        }
        lanes[id] = lane
        logger.notice(
            "lane added by the reload: connecting",
            metadata: ["lane": "\(id)", "endpoint": "\(configuration.endpoint)"])
        publishLaneEvent(
            id,
            .added(
                endpoint: configuration.endpoint, platform: configuration.platform,
                transport: configuration.transport))
        emit(.openLink(configuration))
    }

    private func ask(_ lane: LaneState, _ change: LaneChange) {
        lane.link.reloadAsked(change)
        changingLanes.insert(lane.id)
        guard !lane.isIdle else { return }
        let inFlight = lane.inFlight.records.map(\.id)
        let metadata: Logger.Metadata = ["lane": "\(lane.id)", "inFlight": "\(inFlight.joined(separator: ","))"]
        if change == .remove {
            logger.notice(
                "lane removed by the reload; it waits for what is in flight on it to end, then its link is closed",
                metadata: metadata)
        } else {
            logger.notice(
                "lane changed by the reload; it waits for what is in flight on it to end, then its link is closed",
                metadata: metadata)
        }
    }

    /// A reload brought a lane back to the settings it runs on before its change was carried out.
    private func withdraw(_ lane: LaneState) {
        guard lane.link.reloadWithdrawn() == .stay else { return }
        changingLanes.remove(lane.id)
        logger.notice(
            "lane is back in the reloaded configuration as it runs; it stays",
            metadata: ["lane": "\(lane.id)"])
    }
}
