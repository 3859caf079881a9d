import BridgeCore
import BridgeJournal
import Dispatch
import Foundation
import VivaCloud
import ZeroMQ

/// The loop's link to Viva's cloud: one client (one token), the thread its tasks run on, the wake-up
/// socket the loop polls, Viva's records (``VivaRecords``) and the cloud lanes' sessions' poller
/// (``CloudLanes``).
struct VivaCloudLink {
    /// The loop's end of the wake-up pair: readable when an answer or a session's news waits.
    let wake: Socket
    let waker: LoopWaker
    let client: VivaCloudClient
    let executor: ThreadTaskExecutor
    let records: VivaRecords
    let lanes: CloudLanes
}

extension BridgeLoop {
    /// With `vivaCloud`: makes the cloud client and its wake-up pair, starts the cloud lanes' poller, and
    /// watches the pair (control stage: Viva's answers are read before new
    /// commands). Made last in a start, after everything that may fail.
    func openVivaCloud() throws {
        guard let cloud = configuration.vivaCloud else { return }
        let endpoint = "inproc://vivabridge-viva-cloud-\(UUID().uuidString)"
        let wake = try Socket(context, .pair)
        let waker: LoopWaker
        let client: VivaCloudClient
        let executor = ThreadTaskExecutor(name: "viva-cloud")
        do {
            try wake.bind(endpoint)
            waker = try LoopWaker(context: context, endpoint: endpoint)
            do {
                client = try VivaCloudClient(
                    settings: try cloud.clientSettings(), logger: logger,
                    observer: { [metrics = observation.metrics] exchange in
                        metrics.cloudRequest(call: exchange.call, status: exchange.httpStatus)
                    }, executor: executor)
            } catch {
                waker.close()
                throw error
            }
        } catch {
            wake.close()
            executor.stop()
            throw error
        }
        // The poller runs whether a lane is a cloud lane or not (a reload may add one); with no session in
        // flight it only wakes every pollMs.
        vivaCloud = VivaCloudLink(
            wake: wake, waker: waker, client: client, executor: executor,
            records: VivaRecords(client: client, waker: waker, executor: executor),
            lanes: CloudLanes(client: client, pollMs: cloud.pollMs, waker: waker, executor: executor, logger: logger))
        try sockets.watch(wake, stage: .control) { [unowned self] in takeVivaNews() }
        logger.info("unknown results are looked up in Viva's records", metadata: ["vivaCloud": "\(cloud.summary)"])
    }

    /// Hands the look-up due now, if any, to Viva's records (once a tick).
    func askVivaRecords() {
        guard let vivaCloud, let request = correlator.takeDueVivaLookup() else { return }
        vivaCloud.records.lookUp(request)
    }

    /// Hands a cloud lane's request to the poller; false when the bridge has none (no `vivaCloud`: its
    /// command never leaves).
    func carryToCloud(_ request: CloudLaneRequest) -> Bool {
        guard let lanes = vivaCloud?.lanes else { return false }
        lanes.carry(request)
        return true
    }

    /// Reads the wake-up pair dry and hands every answer Viva gave, and every session's news, to the
    /// correlator; a cloud lane whose link moved is published to the page.
    private func takeVivaNews() {
        guard let vivaCloud else { return }
        while receiveOrNoteDrained(vivaCloud.wake, { try $0.receive(wait: false) }) != nil {}
        for answer in vivaCloud.records.takeAnswers() { correlator.vivaAnswered(answer) }
        for event in vivaCloud.lanes.takeEvents() {
            correlator.cloudSessionReported(event)
            if case .reachable = event {
                for (id, lane) in correlator.laneStates where lane.configuration.relayEndpoint == nil {
                    observeLink(id)
                }
            }
        }
    }

    /// Stops the poller, closes the client (always: its connections end with it) and the wake-up pair.
    /// Answers still under way are dropped: their commands are asked for again at the next start.
    func closeVivaCloud() {
        guard let vivaCloud else { return }
        let done = DispatchSemaphore(value: 0)
        let (lanes, client) = (vivaCloud.lanes, vivaCloud.client)
        Task(executorPreference: vivaCloud.executor) {
            await lanes.shutdown()
            await client.shutdown()
            done.signal()
        }
        done.wait()
        vivaCloud.executor.stop()
        vivaCloud.waker.close()
        vivaCloud.wake.close()
        self.vivaCloud = nil
    }
}
