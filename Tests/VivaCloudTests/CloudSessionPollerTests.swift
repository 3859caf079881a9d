import Foundation
import TerminalSimulator
import Testing
import VivaCloud

/// The poller driving Cloud Terminal sessions against the simulated back office over loopback HTTP: one
/// POST a session whatever is lost, no success before the record, and a restart that asks before it posts.
@Suite("The cloud session poller against the simulated back office")
struct CloudSessionPollerTests {
    /// A poller of `cloud`'s client whose events are collected; `body` runs while it polls.
    static func withPoller(
        _ cloud: CloudFixture, _ body: (CloudSessionPoller, AsyncStream<CloudSessionEvent>) async throws -> Void
    ) async throws {
        let (events, continuation) = AsyncStream.makeStream(of: CloudSessionEvent.self)
        let poller = CloudSessionPoller(client: cloud.client, pollInterval: .milliseconds(20)) {
            continuation.yield($0)
        }
        let polling = Task { await poller.run() }
        // A guard, not a wait: a session that never ends fails the test in 30 s instead of hanging it.
        let guardTime = Task {
            try await Task.sleep(for: .seconds(30))
            continuation.finish()
        }
        defer {
            polling.cancel()
            guardTime.cancel()
        }
        try await body(poller, events)
    }

    /// The result of `sessionId`, waiting for it (every event before it is returned too).
    static func result(
        of sessionId: String, in events: AsyncStream<CloudSessionEvent>
    ) async -> (CloudSessionResult?, [CloudSessionEvent]) {
        var seen: [CloudSessionEvent] = []
        for await event in events {
            seen.append(event)
            if case .finished(sessionId, let result) = event { return (result, seen) }
        }
        return (nil, seen)
    }

    static func sale(_ amount: Int, reference: String = "pos-\(UUID().uuidString.prefix(8))") -> CloudTerminalRequest {
        CloudTerminalRequest(
            sessionId: CloudSessionId.derive(journal: UUID(), commandId: reference), terminalId: "16016684",
            cashRegisterId: "till-4", amount: amount, merchantReference: reference)
    }

    @Test("a sale approved by its session and its record: posted once, approved, the ledger's F")
    func approved() async throws {
        try await withCloud { cloud in
            try await Self.withPoller(cloud) { poller, events in
                let sale = Self.sale(1234)
                await poller.begin(sale)
                let (result, seen) = await Self.result(of: sale.sessionId, in: events)
                guard case .approved(let session, let record)? = result else {
                    Issue.record("ended \(String(describing: result))")
                    return
                }
                #expect(seen.contains(.posted(sessionId: sale.sessionId)))
                #expect(session.merchantReference == sale.merchantReference)
                #expect(record.statusId == .finished && record.amountCents == 1234)
                #expect(cloud.backOffice.count(path: "/ecr/v1/transactions:sale") == 1)
                #expect(await poller.inFlight == 0)
            }
        }
    }

    @Test("a POST applied but its answer lost: the session is asked for and never posted again")
    func lostPostAnswer() async throws {
        var faults = CloudFaults()
        faults.lostPostAnswers = 1
        try await withCloud(faults: faults) { cloud in
            try await Self.withPoller(cloud) { poller, events in
                let sale = Self.sale(2500)
                await poller.begin(sale)
                let (result, _) = await Self.result(of: sale.sessionId, in: events)
                guard case .approved? = result else {
                    Issue.record("ended \(String(describing: result))")
                    return
                }
                #expect(cloud.backOffice.count(path: "/ecr/v1/transactions:sale") == 1)
                #expect(cloud.backOffice.repeatedSessionPosts == 0)
                #expect(cloud.ledger.entries.count == 1, "one charge")
            }
        }
    }

    @Test("a declined amount ends declined")
    func declined() async throws {
        try await withCloud { cloud in
            try await Self.withPoller(cloud) { poller, events in
                let sale = Self.sale(1051)
                await poller.begin(sale)
                let (result, _) = await Self.result(of: sale.sessionId, in: events)
                guard case .declined(let session)? = result else {
                    Issue.record("ended \(String(describing: result))")
                    return
                }
                #expect(session.success == false)
            }
        }
    }

    @Test("a session whose record disagrees ends unknown with disagreement, never approved")
    func disagreement() async throws {
        var faults = CloudFaults()
        faults.sessionsDisagree = true
        try await withCloud(faults: faults) { cloud in
            try await Self.withPoller(cloud) { poller, events in
                let sale = Self.sale(1234)
                await poller.begin(sale)
                let (result, _) = await Self.result(of: sale.sessionId, in: events)
                guard case .unknown(let unknown)? = result else {
                    Issue.record("ended \(String(describing: result))")
                    return
                }
                #expect(unknown.disagreement)
                #expect(unknown.session?.success == true)
                #expect(unknown.record?.statusId == .error)
            }
        }
    }

    @Test("a session that never reaches the device is deleted at the deadline and ends aborted")
    func deadlineAborts() async throws {
        var faults = CloudFaults()
        faults.sessionsNeverFinish = true
        try await withCloud(faults: faults) { cloud in
            try await Self.withPoller(cloud) { poller, events in
                let sale = Self.sale(1234)
                await poller.begin(sale)
                var seen: [CloudSessionEvent] = []
                for await event in events {
                    seen.append(event)
                    if event == .posted(sessionId: sale.sessionId) { break }
                }
                await poller.deadlinePassed(sessionId: sale.sessionId)
                let (result, _) = await Self.result(of: sale.sessionId, in: events)
                guard case .declined(let session)? = result else {
                    Issue.record("ended \(String(describing: result))")
                    return
                }
                #expect(session.abortOperation == true)
                #expect(cloud.backOffice.count(path: "/ecr/v1/sessions/\(sale.sessionId)") >= 1)
                #expect(cloud.ledger.entries.isEmpty, "nothing charged")
            }
        }
    }

    @Test("after a restart a session Viva holds is asked for and finished, never posted again")
    func resumeAfterRestart() async throws {
        try await withCloud { cloud in
            let sale = Self.sale(4200)
            try await cloud.client.startSession(sale)
            try await Self.withPoller(cloud) { poller, events in
                await poller.resume(sale)
                let (result, _) = await Self.result(of: sale.sessionId, in: events)
                guard case .approved? = result else {
                    Issue.record("ended \(String(describing: result))")
                    return
                }
                #expect(cloud.backOffice.count(path: "/ecr/v1/transactions:sale") == 1)
                #expect(cloud.backOffice.repeatedSessionPosts == 0)
            }
        }
    }

    @Test("after a restart a session Viva never received is posted, once, under the same id")
    func resumeNeverPosted() async throws {
        try await withCloud { cloud in
            try await Self.withPoller(cloud) { poller, events in
                let sale = Self.sale(4300)
                await poller.resume(sale)
                let (result, _) = await Self.result(of: sale.sessionId, in: events)
                guard case .approved(let session, _)? = result else {
                    Issue.record("ended \(String(describing: result))")
                    return
                }
                #expect(session.sessionId == sale.sessionId)
                #expect(cloud.backOffice.count(path: "/ecr/v1/transactions:sale") == 1)
            }
        }
    }
}
