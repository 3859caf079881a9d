import Foundation
import TerminalSimulator
import Testing
import VivaCloud

@Suite("Look-ups: a day's transactions and one transaction, typed, from the back office's ledger")
struct LookupTests {
    @Test("the day's list returns the ledger's transactions of that day, typed")
    func dayList() async throws {
        try await withCloud { cloud in
            let approved = try #require(
                cloud.ledger.recordSale(amount: 1234, merchantTrns: "pos-1", terminalId: "16016684"))
            let declined = try #require(
                cloud.ledger.recordSale(amount: 1051, merchantTrns: "pos-2", terminalId: "16016684"))
            let day = String(approved.insDate.prefix(10))
            let list = try await cloud.client.transactions(onDay: day)
            #expect(list.map(\.transactionId) == [approved.transactionId, declined.transactionId])
            #expect(list.map(\.statusId) == [.finished, .error])
            #expect(list.map(\.amountCents) == [1234, 1051])
            #expect(list.map(\.merchantTrns) == ["pos-1", "pos-2"])
            #expect(list[0].orderCode?.value == approved.orderCode)
            #expect(list[0].insDate == approved.insDate)
            #expect(list[0].sourceTerminalId?.value == "16016684")
            #expect(try await cloud.client.transactions(onDay: "2001-01-01").isEmpty)
        }
    }

    @Test("one transaction returns its statusId and amount")
    func getOne() async throws {
        try await withCloud { cloud in
            let entry = try #require(cloud.ledger.recordSale(amount: 2051, merchantTrns: "pos-9", terminalId: "1"))
            let found = try await cloud.client.transaction(id: entry.transactionId)
            #expect(found.statusId == .error)
            #expect(found.amountCents == 2051)
            #expect(found.merchantTrns == "pos-9")
            #expect(found.orderCode?.value == entry.orderCode)
        }
    }

    @Test("an unknown transaction is notFound")
    func notFound() async throws {
        try await withCloud { cloud in
            let error = await #expect(throws: VivaCloudError.self) {
                _ = try await cloud.client.transaction(id: "00000000-0000-4000-8000-000000000000")
            }
            #expect(error?.code == .notFound)
        }
    }

    @Test("a transaction that appears only later is absent from both look-ups until then")
    func appearsLater() async throws {
        var faults = CloudFaults()
        faults.appearAfterMs = 400
        let clock = ManualSimulatorClock()
        try await withCloud(faults: faults, clock: clock) { cloud in
            let entry = try #require(cloud.ledger.recordSale(amount: 1000, merchantTrns: "late", terminalId: "1"))
            let day = String(entry.insDate.prefix(10))
            #expect(try await cloud.client.transactions(onDay: day).isEmpty)
            await #expect(throws: VivaCloudError.self) {
                _ = try await cloud.client.transaction(id: entry.transactionId)
            }
            clock.advance(by: 0.5)
            #expect(try await cloud.client.transactions(onDay: day).map(\.merchantTrns) == ["late"])
            #expect(try await cloud.client.transaction(id: entry.transactionId).amountCents == 1000)
        }
    }

    @Test("a wrong API key is refused as unauthorized")
    func wrongAPIKey() async throws {
        let wrongKey: (inout VivaCloudSettings) -> Void = { $0.apiKey = Secret("wrong-key") }
        try await withCloud(adjust: wrongKey) { cloud in
            let error = await #expect(throws: VivaCloudError.self) {
                _ = try await cloud.client.transactions(onDay: "2026-11-21")
            }
            #expect(error?.code == .unauthorized)
            #expect(error?.message.contains("Merchant ID and API key") == true)
        }
    }
}
