import InterApp

extension Correlator {
    /// The link to `laneId` completed its handshake: say hello and mark the lane connected.
    func linkUp(_ laneId: String) {
        guard let lane = lanes[laneId], !lane.connected else { return }
        lane.connected = true
        var hello = JSONObject()
        hello["bridge"] = .string(Self.version)
        hello["lane"] = .string(laneId)
        emit(.send(lane: laneId, frames: [Array("hello".utf8), JSONValue.object(hello).serialized()], recordId: nil))
        publishLaneEvent(laneId, "lane.connected", [("endpoint", .string(lane.configuration.endpoint))])
    }

    /// The link to `laneId` went down. What is in flight stays in flight: its URL may have reached the
    /// terminal, so only its callback or its deadline can end it.
    func linkDown(_ laneId: String) {
        guard let lane = lanes[laneId], lane.connected else { return }
        lane.connected = false
        publishLaneEvent(laneId, "lane.disconnected", [("endpoint", .string(lane.configuration.endpoint))])
    }

    /// Takes one message from a lane's relay (PROTOCOL.md section 5).
    func receiveFromRelay(lane laneId: String, frames: [[UInt8]]) {
        guard let lane = lanes[laneId], let kind = frames.first else { return }
        switch String(decoding: kind, as: UTF8.self) {
        case "hello" where frames.count >= 2:
            if case .object(let hello)? = try? JSONValue.parse(frames[1]) {
                lane.relayHello = hello
                if let platform = hello["platform"]?.stringValue, platform != lane.platform.rawValue {
                    logger.warning(
                        "relay reports another platform than configured; the configured dialect is used",
                        metadata: [
                            "lane": "\(laneId)", "relay": "\(platform)", "configured": "\(lane.platform.rawValue)",
                        ])
                }
            }
        case "opened" where frames.count >= 2:
            let ref = String(decoding: frames[1], as: UTF8.self)
            if let record = records[ref], record.state != .delivered {
                record.state = .delivered
                if record.lookupFor == nil { publishProgress(record, "delivered") }
            }
        case "not_opened" where frames.count >= 2:
            let ref = String(decoding: frames[1], as: UTF8.self)
            let reason = frames.count >= 3 ? String(decoding: frames[2], as: UTF8.self) : "no reason given"
            notOpened(ref: ref, reason: reason, lane: lane)
        case "callback" where frames.count >= 2:
            receiveCallback(frames[1], lane: lane)
        case "returned":
            publishLaneEvent(laneId, "lane.returned", [("inFlight", lane.current.map { .string($0.id) } ?? .null)])
        default:
            logger.notice(
                "unexpected frame from relay", metadata: ["lane": "\(laneId)", "kind": "\(Redaction.printable(kind))"])
        }
    }

    private func notOpened(ref: String, reason: String, lane: LaneState) {
        guard let record = records[ref] else { return }
        if record.lookupFor != nil {
            records[ref] = nil
            if lane.current === record { lane.current = nil }
            return
        }
        finalize(
            record,
            .outcome(.undeliverable, "the relay could not open the request: \(reason); safe to retry under a new id"))
    }
}
