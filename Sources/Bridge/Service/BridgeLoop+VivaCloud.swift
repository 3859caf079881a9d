import Foundation
import ZeroMQ

/// The loop's link to Viva's records (``VivaRecords``): the wake-up socket it polls and the records' side.
struct VivaCloudLink {
    /// The loop's end of the wake-up pair: readable when an answer waits.
    let wake: Socket
    let records: VivaRecords
}

extension BridgeLoop {
    /// With `vivaCloud`: makes the cloud client and its wake-up pair, and watches the pair (control stage:
    /// Viva's answers are read before new commands). Made last in a start, after everything that may fail.
    func openVivaCloud() throws {
        guard let cloud = configuration.vivaCloud else { return }
        let endpoint = "inproc://vivabridge-viva-records-\(UUID().uuidString)"
        let wake = try Socket(context, .pair)
        let records: VivaRecords
        do {
            try wake.bind(endpoint)
            records = try VivaRecords(
                configuration: cloud, context: context, wakeEndpoint: endpoint, logger: logger,
                metrics: observation.metrics)
        } catch {
            wake.close()
            throw error
        }
        let link = VivaCloudLink(wake: wake, records: records)
        vivaCloud = link
        try sockets.watch(wake, stage: .control) { [unowned self] in takeVivaAnswers() }
        logger.info("unknown results are looked up in Viva's records", metadata: ["vivaCloud": "\(cloud.summary)"])
    }

    /// Hands the look-up due now, if any, to Viva's records (once a tick).
    func askVivaRecords() {
        guard let vivaCloud, let request = correlator.takeDueVivaLookup() else { return }
        vivaCloud.records.lookUp(request)
    }

    /// Reads the wake-up pair dry and hands every answer Viva gave to the correlator.
    private func takeVivaAnswers() {
        guard let vivaCloud else { return }
        while receiveOrNoteDrained(vivaCloud.wake, { try $0.receive(wait: false) }) != nil {}
        for answer in vivaCloud.records.takeAnswers() { correlator.vivaAnswered(answer) }
    }

    /// Closes the client (always: its connections end with it) and the wake-up pair.
    func closeVivaCloud() {
        guard let vivaCloud else { return }
        vivaCloud.records.shutdown()
        vivaCloud.wake.close()
        self.vivaCloud = nil
    }
}
