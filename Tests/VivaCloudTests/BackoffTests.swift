import Foundation
import TerminalSimulator
import Testing
import VivaCloud

@Suite("429 and 5xx: backoff honouring Retry-After, bounded attempts; a sale is never sent twice blindly")
struct BackoffTests {
    @Test("a 429 with Retry-After is waited out, then the call succeeds")
    func tooManyRequestsHonoursRetryAfter() async throws {
        var faults = CloudFaults()
        faults.retryAfterSeconds = 1
        try await withCloud(faults: faults) { cloud in
            let entry = try #require(cloud.ledger.recordSale(amount: 1000, merchantTrns: "a", terminalId: "1"))
            _ = try await cloud.client.transaction(id: entry.transactionId)
            cloud.backOffice.faults.script = [429]
            let started = ContinuousClock.now
            let found = try await cloud.client.transaction(id: entry.transactionId)
            let waited = ContinuousClock.now - started
            #expect(found.amountCents == 1000)
            #expect(waited >= .milliseconds(950), "Retry-After: 1 must be honoured (waited \(waited))")
            #expect(cloud.backOffice.count(path: "/checkout/v2/transactions/\(entry.transactionId)", status: 429) == 1)
        }
    }

    @Test("5xx answers are backed off and the call is sent again until it succeeds")
    func serverErrorsBackedOff() async throws {
        var faults = CloudFaults()
        faults.retryAfterSeconds = nil
        faults.script = [500, 503, 502]
        try await withCloud(faults: faults) { cloud in
            let entry = try #require(cloud.ledger.recordSale(amount: 1000, merchantTrns: "a", terminalId: "1"))
            let day = String(entry.insDate.prefix(10))
            let list = try await cloud.client.transactions(onDay: day)
            #expect(list.count == 1)
            #expect(cloud.backOffice.count(path: "/api/transactions") == 4)
        }
    }

    @Test("attempts are bounded: 5xx through every attempt ends in serverError")
    func attemptsBounded() async throws {
        var faults = CloudFaults()
        faults.retryAfterSeconds = nil
        faults.script = [500, 500, 500, 500, 500]
        let threeAttempts: (inout VivaCloudSettings) -> Void = { $0.maxAttempts = 3 }
        try await withCloud(faults: faults, adjust: threeAttempts) { cloud in
            let error = await #expect(throws: VivaCloudError.self) {
                _ = try await cloud.client.transactions(onDay: "2026-11-21")
            }
            #expect(error?.code == .serverError)
            #expect(error?.httpStatus == 500)
            #expect(cloud.backOffice.count(path: "/api/transactions") == 3)
        }
    }

    @Test("a sale answered 5xx is not posted again: the caller must ask for its session first")
    func saleNotRepeated() async throws {
        try await withCloud { cloud in
            // The token first, so that the fault meets the sale itself.
            let entry = try #require(cloud.ledger.recordSale(amount: 1000, merchantTrns: "a", terminalId: "1"))
            _ = try await cloud.client.transaction(id: entry.transactionId)
            cloud.backOffice.faults.script = [503]
            cloud.backOffice.faults.retryAfterSeconds = nil
            let sale = CloudTerminalRequest(
                sessionId: "s-1", terminalId: "16016684", cashRegisterId: "till-4", amount: 1000,
                merchantReference: "cmd-1")
            let error = await #expect(throws: VivaCloudError.self) { try await cloud.client.startSession(sale) }
            #expect(error?.code == .serverError)
            #expect(error?.message.contains("ask for its session") == true)
            #expect(cloud.backOffice.count(path: "/ecr/v1/transactions:sale") == 1)
        }
    }

    @Test("the client bounds its own request rate")
    func rateBounded() async throws {
        let tenASecond: (inout VivaCloudSettings) -> Void = {
            $0.requestsPerSecond = 10
            $0.burst = 1
        }
        try await withCloud(adjust: tenASecond) { cloud in
            let started = ContinuousClock.now
            for _ in 0..<4 { _ = try await cloud.client.transactions(onDay: "2026-11-21") }
            // One at once, then one every 100 ms: the fourth goes no sooner than 300 ms after the first.
            #expect(ContinuousClock.now - started >= .milliseconds(290))
        }
    }
}
