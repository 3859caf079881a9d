import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// What the loop decides the tap's events by: the viewers of everything and the union of the others' prefixes.
@Suite("Event tap: what the viewers want")
struct TapInterestTests {
    private let saleOnLane1 = Array("lane-1.sale.result".utf8)
    private let saleOnLane2 = Array("lane-2.sale.result".utf8)

    @Test("two viewers with one filter: the loop builds its events until both left")
    func identicalFilters() {
        var interest = TapInterest()
        let filter = TopicPrefixes(["lane-1."])
        interest.add(filter)
        interest.add(filter)
        interest.remove(filter)
        #expect(interest.wants(saleOnLane1))
        #expect(!interest.wants(saleOnLane2))
        interest.remove(filter)
        #expect(!interest.wants(saleOnLane1))
        #expect(interest.wants(Array("bridge.heartbeat.beat".utf8)), "the bridge's own state, whoever watches")
    }

    @Test("a viewer of everything wants every event; past 64 different prefixes every event is built")
    func everything() {
        var interest = TapInterest()
        interest.add(nil)
        #expect(interest.wants(saleOnLane2))
        interest.remove(nil)
        #expect(!interest.wants(saleOnLane2))
        interest.add(TopicPrefixes((0..<TapInterest.mostPrefixes).map { "till-\($0)." }))
        #expect(!interest.wants(saleOnLane2), "64 prefixes are matched")
        interest.add(TopicPrefixes(["till-64."]))
        #expect(interest.wants(saleOnLane2), "65 are not: the event is built as for a viewer of everything")
    }
}
