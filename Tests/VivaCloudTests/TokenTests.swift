import Foundation
import TerminalSimulator
import Testing
import VivaCloud

@Suite("The OAuth2 token: cached, fetched once at a time, fetched again once when refused")
struct TokenTests {
    @Test("a token is fetched once and reused by later calls")
    func fetchedOnceAndReused() async throws {
        try await withCloud { cloud in
            let entry = try #require(cloud.ledger.recordSale(amount: 1000, merchantTrns: "a", terminalId: "1"))
            _ = try await cloud.client.transaction(id: entry.transactionId)
            _ = try await cloud.client.transaction(id: entry.transactionId)
            _ = try await cloud.client.transaction(id: entry.transactionId)
            #expect(cloud.backOffice.count(path: "/connect/token") == 1)
        }
    }

    @Test("calls at once share one token fetch")
    func oneFetchAtATime() async throws {
        var faults = CloudFaults()
        faults.latencyMs = 500
        try await withCloud(faults: faults) { cloud in
            let entry = try #require(cloud.ledger.recordSale(amount: 1000, merchantTrns: "a", terminalId: "1"))
            let client = cloud.client
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<5 { group.addTask { _ = try await client.transaction(id: entry.transactionId) } }
                try await group.waitForAll()
            }
            #expect(cloud.backOffice.count(path: "/connect/token") == 1)
        }
    }

    @Test("a refused token (401) makes one new fetch, and the call succeeds")
    func refusedTokenFetchedAgainOnce() async throws {
        try await withCloud { cloud in
            let entry = try #require(cloud.ledger.recordSale(amount: 1000, merchantTrns: "a", terminalId: "1"))
            _ = try await cloud.client.transaction(id: entry.transactionId)
            cloud.backOffice.revokeTokens()
            let again = try await cloud.client.transaction(id: entry.transactionId)
            #expect(again.amountCents == 1000)
            #expect(cloud.backOffice.count(path: "/connect/token") == 2)
            #expect(cloud.backOffice.count(path: "/checkout/v2/transactions/\(entry.transactionId)", status: 401) == 1)
        }
    }

    @Test("a token refused again right after a fresh fetch ends the call unauthorized, with no third fetch")
    func refusedTwice() async throws {
        var faults = CloudFaults()
        faults.tokenExpiresAfterMs = 0
        try await withCloud(faults: faults) { cloud in
            let entry = try #require(cloud.ledger.recordSale(amount: 1000, merchantTrns: "a", terminalId: "1"))
            let error = await #expect(throws: VivaCloudError.self) {
                _ = try await cloud.client.transaction(id: entry.transactionId)
            }
            #expect(error?.code == .unauthorized)
            #expect(cloud.backOffice.count(path: "/connect/token") == 2)
        }
    }

    @Test("a token is fetched again before it expires (half its life when it lives under two minutes)")
    func renewedBeforeExpiry() async throws {
        var faults = CloudFaults()
        faults.tokenLifetimeSeconds = 2
        // The back office's clock moves only when told: however slow the calls under load, the first token is
        // never expired at Viva's end, so any second fetch is the client's renewal, not a refusal's.
        let clock = ManualSimulatorClock()
        try await withCloud(faults: faults, clock: clock) { cloud in
            let entry = try #require(cloud.ledger.recordSale(amount: 1000, merchantTrns: "a", terminalId: "1"))
            _ = try await cloud.client.transaction(id: entry.transactionId)
            #expect(cloud.backOffice.count(path: "/connect/token") == 1)
            // Time passing is what is tested (the client's own clock): past half the token's life (1 s), it is
            // renewed before use, while Viva would still take the old one (1.1 s of its 2).
            try await Task.sleep(for: .milliseconds(1100))
            clock.advance(by: 1.1)
            _ = try await cloud.client.transaction(id: entry.transactionId)
            #expect(cloud.backOffice.count(path: "/connect/token") == 2)
            #expect(cloud.backOffice.requests.allSatisfy { $0.status != 401 })
        }
    }

    @Test("a token that expires earlier than announced is refused once, fetched again, and the call succeeds")
    func expiresEarly() async throws {
        var faults = CloudFaults()
        faults.tokenExpiresAfterMs = 200
        let clock = ManualSimulatorClock()
        try await withCloud(faults: faults, clock: clock) { cloud in
            let entry = try #require(cloud.ledger.recordSale(amount: 1000, merchantTrns: "a", terminalId: "1"))
            _ = try await cloud.client.transaction(id: entry.transactionId)
            clock.advance(by: 0.3)
            _ = try await cloud.client.transaction(id: entry.transactionId)
            #expect(cloud.backOffice.count(path: "/connect/token") == 2)
            #expect(cloud.backOffice.count(path: "/checkout/v2/transactions/\(entry.transactionId)", status: 401) == 1)
        }
    }

    @Test("a wrong client secret is refused with an error naming the settings to check")
    func wrongSecret() async throws {
        try await withCloud(clientSecret: "not-the-secret") { cloud in
            let error = await #expect(throws: VivaCloudError.self) {
                _ = try await cloud.client.transaction(id: "x")
            }
            #expect(error?.code == .unauthorized)
            #expect(error?.message.contains("clientSecretFile") == true)
            #expect(error?.description.contains("not-the-secret") == false)
        }
    }
}
