import InterApp

extension Correlator {
    /// The most bytes of a relay's `hello` fields the bridge keeps (and returns in every `lanes` answer).
    static let maxRelayHelloField = 128

    /// The link to `laneId` completed its handshake: say hello (with the bridge's ``epoch``). The lane is up
    /// only once the relay answers it (``relayIntroduced(_:lane:)``): a relay that saw a higher epoch ignores
    /// it, and a command sent to it would wait for an answer that never comes.
    package func linkUp(_ laneId: String) {
        guard let lane = lanes[laneId], lane.link.linkUp(atMs: nowMs()) == .greet else { return }
        logger.info(
            "lane link connected; said hello, the lane is up once its relay answers",
            metadata: ["lane": "\(laneId)", "endpoint": "\(lane.configuration.endpoint)"])
        let hello = BridgeHello(bridge: Self.version, lane: laneId, epoch: epoch)
        emit(.send(lane: laneId, message: .hello(body: hello.body), recordId: nil))
    }

    /// The link to `laneId` went down. What is in flight stays in flight: its URL may have reached the
    /// terminal, so only its callback or its deadline can end it.
    package func linkDown(_ laneId: String) {
        guard let lane = lanes[laneId] else { return }
        switch lane.link.linkDown() {
        case .announce:
            logger.notice(
                "lane link down: commands for it are undeliverable until it is back",
                metadata: ["lane": "\(laneId)", "endpoint": "\(lane.configuration.endpoint)"])
            publishLaneEvent(laneId, .disconnected(endpoint: lane.configuration.endpoint))
        case .quiet:
            logger.info(
                "lane link down before its relay answered hello",
                metadata: ["lane": "\(laneId)", "endpoint": "\(lane.configuration.endpoint)"])
        case .greet, .ignore:
            break
        }
    }

    /// Logs, once a connection, each lane whose relay has not answered the bridge's `hello` within
    /// ``LaneLinkState/helloAnswerWarningMs``: the lane stays not up, and its commands `undeliverable`.
    func warnOfUnansweredHellos(lane: LaneState, nowMs: Int64) {
        guard lane.link.greetingOverdue(nowMs: nowMs) else { return }
        logger.warning(
            "relay did not answer hello: the lane is not up and its commands are undeliverable (a relay ignores the hello of a bridge whose epoch is lower than one it saw: is another bridge, or an older journal, serving this lane?)",
            metadata: [
                "lane": "\(lane.id)", "endpoint": "\(lane.configuration.endpoint)", "epoch": "\(epoch)",
                "waitedMs": "\(LaneLinkState.helloAnswerWarningMs)",
            ])
    }

    /// ZeroMQ dropped the link to `laneId` after it had come up; the loop makes it anew.
    package func linkReset(_ laneId: String) {
        lanes[laneId]?.faults.linkResets += 1
    }

    /// The connection to `laneId`'s relay failed before its link came up; the loop backs off.
    package func handshakeFailed(_ laneId: String) {
        lanes[laneId]?.faults.handshakeFailures += 1
    }

    /// Takes one message from a lane's relay (PROTOCOL.md section 5). A relay speaks only for its own
    /// lane: a frame naming another lane's command is logged and counted, never applied. Returns whether the
    /// message took the lane's link up or down (the loop then publishes it to `/readyz` and `/metrics`).
    @discardableResult
    package func receiveFromRelay(lane laneId: String, frames: [[UInt8]]) -> Bool {
        guard let lane = lanes[laneId] else { return false }
        let wasUp = lane.connected
        receive(frames, from: lane)
        return lane.connected != wasUp
    }

    private func receive(_ frames: [[UInt8]], from lane: LaneState) {
        let laneId = lane.id
        let message: RelayMessage
        do {
            message = try RelayMessage(frames: frames)
        } catch {
            lane.faults.malformed += 1
            logger.notice(
                "relay sent something that is not a terminal-link message; ignored",
                metadata: ["lane": "\(laneId)", "problem": "\(Redaction.maskDigitRuns(error.description))"])
            return
        }
        switch message {
        case .hello(let body): relayIntroduced(body, lane: lane)
        case .opened(let ref): opened(ref: String(decoding: ref, as: UTF8.self), lane: lane)
        case .notOpened(let ref, let reason):
            notOpened(ref: String(decoding: ref, as: UTF8.self), reason: reason, lane: lane)
        case .callback(let url, let seq): receiveNumberedCallback(url, seq: seq, lane: lane)
        case .returned:
            publishLaneEvent(laneId, .returned(inFlight: lane.inFlight.activity.record?.id))
        case .open, .received:
            lane.faults.malformed += 1
            logger.notice(
                "relay sent a message only the bridge sends; ignored",
                metadata: ["lane": "\(laneId)", "kind": "\(message.kind.rawValue)"])
        }
    }

    /// A callback, numbered by a v1.3 relay or not (`seq` nil: a v1.2 relay, no answer). A numbered one is
    /// answered `received` once its outcome is journaled: the answer is an effect of the turn that journals
    /// it, so it leaves after that turn's commit. A copy of one this bridge already took changes nothing
    /// and is answered at once (after the turns still waiting for their commit), unless journal writes
    /// are failing: the first copy's outcome may not be journaled yet, and the relay sends it again later.
    private func receiveNumberedCallback(_ url: [UInt8], seq: UInt64?, lane: LaneState) {
        guard let seq else { return receiveCallback(url, lane: lane) }
        let received = Effect.send(lane: lane.id, message: .received(seq: seq), recordId: nil)
        let key = RelayCallbackKey(seq: seq, url: url)
        guard lane.relaySequences.isCopy(key) else {
            lane.relaySequences.took(key)
            receiveCallback(url, lane: lane, relay: key)
            emit(received)
            return
        }
        logger.info(
            "relay sent again a callback the bridge already took; nothing changes",
            metadata: ["lane": "\(lane.id)", "seq": "\(seq)"])
        if journalHealth == .healthy { emit(received) }
    }

    /// The relay's `hello`: its platform, app and version, each kept short (a relay cannot make every
    /// `lanes` answer large). Its answer to the bridge's `hello` brings the lane up.
    private func relayIntroduced(_ body: [UInt8], lane: LaneState) {
        guard case .object(let hello)? = try? JSONValue.parse(body) else {
            lane.faults.malformed += 1
            logger.notice("relay hello is not a JSON object; ignored", metadata: ["lane": "\(lane.id)"])
            return
        }
        var kept = JSONObject()
        for key in ["platform", "app", "version"] {
            if let value = hello[key]?.stringValue {
                kept[key] = .string(String(value.prefix(Self.maxRelayHelloField)))
            }
        }
        lane.relayHello = kept
        if lane.link.helloAnswered() == .announce {
            logger.notice(
                "lane link up: its relay answered hello",
                metadata: ["lane": "\(lane.id)", "endpoint": "\(lane.configuration.endpoint)"])
            publishLaneEvent(lane.id, .connected(endpoint: lane.configuration.endpoint))
        }
        if let platform = kept["platform"]?.stringValue, platform != lane.platform.rawValue {
            logger.warning(
                "relay reports another platform than configured; the configured dialect is used",
                metadata: [
                    "lane": "\(lane.id)", "relay": "\(Quote.short(platform))",
                    "configured": "\(lane.platform.rawValue)",
                ])
        }
    }

    /// The outstanding command `ref` names on `lane`, or nil (counted and logged) when the relay names
    /// something that is not its lane's to decide.
    private func ownRecord(_ ref: String, frame: RelayMessage.Kind, lane: LaneState) -> CommandRecord? {
        if let record = store.record(id: ref), record.lane == lane.id { return record }
        lane.faults.foreignRefs += 1
        logger.warning(
            "relay named a command that is not outstanding on its lane; ignored (a relay speaks only for its own lane)",
            metadata: [
                "lane": "\(lane.id)", "ref": "\(Quote.short(ref))", "frame": "\(frame.rawValue)",
                "owner": "\(store.record(id: ref)?.lane ?? "-")",
            ])
        return nil
    }

    private func opened(ref: String, lane: LaneState) {
        guard let record = ownRecord(ref, frame: .opened, lane: lane), record.progress.opened() else { return }
        guard !record.isRecoveryLookup else { return }
        publishProgress(record, .delivered)
        if record.action.spec.endsWhenOpened {
            finalize(
                record,
                .outcome(
                    .success,
                    "the relay opened the request; the terminal app sends no answer to \(record.action.rawValue)"))
        }
    }

    /// `not_opened`: the command never reached the terminal app, so it is `undeliverable` (safe to retry).
    /// Not after `opened`, nor for a command restored after a restart (its URL may have been opened before
    /// the restart): there only the callback or the deadline can end it, never `undeliverable`.
    private func notOpened(ref: String, reason: [UInt8], lane: LaneState) {
        guard let record = ownRecord(ref, frame: .notOpened, lane: lane) else { return }
        guard !record.progress.mayHaveOpened else {
            lane.faults.contradictions += 1
            logger.warning(
                "relay said not_opened for a command that may already be open on the terminal; ignored",
                metadata: ["lane": "\(lane.id)", "id": "\(record.id)", "state": "\(record.state.rawValue)"])
            return
        }
        if record.isRecoveryLookup {
            endLookup(record)
            return
        }
        let text = reason.isEmpty ? "no reason given" : Redaction.maskDigitRuns(Quote.printable(reason, limit: 200))
        finalize(
            record,
            .outcome(.undeliverable, "the relay could not open the request: \(text); safe to retry under a new id"))
    }
}
