import ZeroMQ

extension BridgeLoop {
    /// Watches a lane's link and its monitor: the link's messages go to the correlator, at most
    /// ``drainLimit`` a turn, and the monitor says when it came up or dropped.
    func watch(_ link: LaneLink) throws {
        let socket = link.socket
        try sockets.watch(socket, stage: .link) { [unowned self] in
            drain(socket) { correlator.receiveFromRelay(lane: link.lane, frames: $0) }
        }
        try sockets.watch(link.monitor, stage: .monitor) { [unowned self] in readMonitor(link) }
    }

    /// ``watch(_:)``, or an error line when the link cannot be watched (the lane then stays down, for
    /// nothing it receives is read). Returns whether it is watched.
    @discardableResult
    func watchOrLog(_ link: LaneLink) -> Bool {
        do {
            try watch(link)
            return true
        } catch {
            unwatch(link)
            logger.error(
                "the link to a lane's relay cannot be watched; the lane stays down until a restart, or a reload that changes it",
                metadata: ["lane": "\(link.lane)", "error": "\(error)"])
            return false
        }
    }

    /// Reads all that a link's socket still holds, before the link is made anew or closed: a callback in it
    /// is still a result.
    func readWhatRemains(_ link: LaneLink) {
        while let frames = try? link.socket.receive(wait: false) {
            correlator.receiveFromRelay(lane: link.lane, frames: frames)
        }
    }

    /// Stops watching a lane's link and its monitor, before they are closed.
    func unwatch(_ link: LaneLink) {
        sockets.unwatch(link.socket)
        sockets.unwatch(link.monitor)
    }

    /// Sends frames to a lane's relay without blocking; false when the lane has no link or the link
    /// cannot take them. The link is asked again before the next wait: a send can consume its signal.
    func sendToRelay(_ lane: String, _ frames: [[UInt8]]) -> Bool {
        guard let link = linksByLane[lane] else { return false }
        sockets.touched(link.socket)
        return link.send(frames)
    }
}
