import BridgeCore
import BridgeJournal

extension BridgeLoop {
    /// Makes the link of a lane a reload added or changed, through the router of its kind. A link that
    /// cannot be made leaves the lane down (its commands are `undeliverable`), said in an error line.
    func openLink(_ lane: LaneConfiguration) {
        guard links[lane.id] == nil else { return }
        do {
            try open(lane)
        } catch {
            logger.error(
                "the link to the lane's relay could not be made; the lane stays down until a restart, or a reload that changes it",
                metadata: ["lane": "\(lane.id)", "endpoint": "\(lane.endpoint)", "error": "\(error)"])
            return
        }
        observeLink(lane.id)
    }

    /// Closes the link of a lane a reload removed or changed, once idle: what its router still holds is read
    /// first (a late callback is still a result), then its connection is dropped and the correlator is told.
    func closeLink(_ lane: String) {
        guard let link = links[lane] else {
            correlator.linkClosed(lane)
            observeLink(lane)
            return
        }
        readWhatRemains(link.router)
        links.close(lane: lane)
        correlator.linkClosed(lane)
        observeLink(lane)
    }
}
