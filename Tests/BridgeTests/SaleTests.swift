import Bridge
import InterApp
import TerminalSimulator
import Testing

@Suite("Sales end to end")
struct SaleTests {
    @Test(
        "an approved sale is replied success with typed fields, in both dialects", arguments: SimulatorPlatform.allCases
    )
    func approvedSale(platform: SimulatorPlatform) throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: platform)
        ])
        let reply = try harness.call(saleJSON(id: "pos-1", lane: "lane-1", amount: 1200, extra: #","tipAmount":200"#))
        #expect(reply.string("outcome") == "success")
        #expect(reply.string("lane") == "lane-1")
        #expect(reply.string("action") == "sale")
        #expect(reply["late"] == .bool(false))
        let result = try #require(reply.object("result"))
        #expect(result.int("amount") == 1200)
        #expect(result.int("tipAmount") == 200)
        #expect(result.string("clientTransactionId") == "pos-1")
        #expect(result.string("accountNumber")?.contains("*") == true)
        let urls = harness.simulator.openedURLs(lane: "lane-1")
        #expect(urls.count == 1)
        #expect(urls.first?.contains("protocol=int_default") == true)
        #expect(urls.first?.contains("clientTransactionId=pos-1") == true)
    }

    @Test("a sale publishes accepted, forwarded, delivered and result with rising seq")
    func saleEvents() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)
        ])
        _ = try harness.call(saleJSON(id: "ev-1", lane: "lane-1", amount: 500))
        let result = try harness.event("lane-1.sale.result") { $0.string("id") == "ev-1" }
        #expect(result.string("outcome") == "success")
        #expect(result.object("result")?.int("amount") == 500)
        let topics = harness.events.filter { $0.body.string("id") == "ev-1" }.map(\.topic)
        #expect(
            topics == ["lane-1.sale.accepted", "lane-1.sale.forwarded", "lane-1.sale.delivered", "lane-1.sale.result"])
        let seqs = harness.events.compactMap { $0.body.int("seq") }
        #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count)
        for event in harness.events {
            #expect(event.body.int("epoch") != nil)
            #expect(event.body.string("time")?.hasSuffix("+00:00") == true)
            #expect(event.body.string("lane") == "lane-1")
        }
    }

    @Test(
        "a declined sale (amount ending in 51) is a failure with what the terminal sent",
        arguments: SimulatorPlatform.allCases)
    func declinedSale(platform: SimulatorPlatform) throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: platform)
        ])
        let reply = try harness.call(saleJSON(id: "d-1", lane: "lane-1", amount: 1251))
        #expect(reply.string("outcome") == "failure")
        #expect(reply.object("result")?.int("amount") == 1251)
        #expect(reply.string("message")?.isEmpty == false)
    }

    @Test("cancel and transactionDetails reach success on an Android lane")
    func cancelAndDetails() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "a", endpoint: "tcp://127.0.0.1:*", platform: .android)
        ])
        let sale = try harness.call(saleJSON(id: "s-1", lane: "a", amount: 700))
        let reference = try #require(sale.object("result")?.string("referenceNumber"))
        let details = try harness.call(
            #"{"id":"td-1","lane":"a","action":"transactionDetails","clientTransactionId":"s-1"}"#)
        #expect(details.string("outcome") == "success")
        #expect(details.object("result")?.int("amount") == 700)
        let cancel = try harness.call(
            #"{"id":"c-1","lane":"a","action":"cancel","referenceNumber":"\#(reference)","amount":700}"#)
        #expect(cancel.string("outcome") == "success")
        let again = try harness.call(#"{"id":"c-2","lane":"a","action":"cancel","referenceNumber":"999999"}"#)
        #expect(again.string("outcome") == "failure")
    }

    @Test("sales on several lanes run at once")
    func parallelLanes() throws {
        let lanes = (1...3).map {
            SimulatedLane(id: "lane-\($0)", endpoint: "tcp://127.0.0.1:*", platform: $0 == 3 ? .android : .ios)
        }
        let harness = try BridgeHarness(lanes: lanes)
        for index in 1...3 { try harness.send(saleJSON(id: "p-\(index)", lane: "lane-\(index)", amount: 100 * index)) }
        for index in 1...3 {
            let reply = try harness.reply(to: "p-\(index)")
            #expect(reply.string("outcome") == "success")
            #expect(reply.object("result")?.int("amount") == 100 * index)
        }
    }
}
