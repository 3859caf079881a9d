import Foundation
import Testing

@testable import TerminalSimulator

@Suite("The simulated back office's ledger: what relay lanes record, and how it is answered")
struct CloudLedgerTests {
    @Test(
        "a relay lane's sales that reach the host are recorded with their clientTransactionId; a cancelled one is not")
    func relaySalesRecorded() throws {
        let clock = ManualSimulatorClock()
        let ledger = CloudLedger(clock: clock)
        let fixture = try Fixture(
            lanes: [SimulatedLane(id: "lane", platform: .android)], clock: clock, ledger: ledger)
        let approved = CallbackFields(
            try fixture.probe().request(Requests.sale(amount: 1200, clientTransactionId: "pos-1", platform: .android)))
        _ = try fixture.probe().request(Requests.sale(amount: 1051, clientTransactionId: "pos-2", platform: .android))
        _ = try fixture.probe().request(Requests.sale(amount: 1052, clientTransactionId: "pos-3", platform: .android))

        let entries = ledger.entries
        #expect(entries.map(\.merchantTrns) == ["pos-1", "pos-2"])
        #expect(entries.map(\.statusId) == ["F", "E"])
        #expect(entries.map(\.amount) == [1200, 1051])
        #expect(entries[0].transactionId == approved["transactionId"])
        #expect(entries[0].orderCode == approved["orderCode"])
        #expect(entries[0].terminalId == approved["tid"])
        // Viva's InsDate: the local time of the sale, with no offset.
        #expect(entries[0].insDate == "2026-11-21T12:14:19.87")
        #expect(ledger.entries(onDay: "2026-11-21").count == 2)
        #expect(ledger.entries(onDay: "2026-11-20").isEmpty)
    }

    @Test("a sale recorded directly follows the outcome rule: 51 declined (E), 52 not recorded")
    func directSales() {
        let ledger = CloudLedger(clock: ManualSimulatorClock())
        #expect(ledger.recordSale(amount: 1000, merchantTrns: "a", terminalId: "16016684")?.statusId == "F")
        #expect(ledger.recordSale(amount: 1051, merchantTrns: "b", terminalId: "16016684")?.statusId == "E")
        #expect(ledger.recordSale(amount: 1052, merchantTrns: "c", terminalId: "16016684") == nil)
        #expect(ledger.entries.count == 2)
    }
}
