import Bridge
import Testing

/// Topic prefixes as a SUB socket takes them: the events socket's subscriptions and `/events` filters.
@Suite("Topic prefixes")
struct TopicPrefixesTests {
    @Test("a topic is taken when it starts with a prefix held; the empty prefix takes every topic")
    func takes() {
        let prefixes = TopicPrefixes(["lane-1.", "lane-2.sale."])
        #expect(prefixes.takes(Array("lane-1.sale.result".utf8)))
        #expect(prefixes.takes(Array("lane-2.sale.accepted".utf8)))
        #expect(!prefixes.takes(Array("lane-2.lane.connected".utf8)))
        #expect(!prefixes.takes(Array("lane-10.sale.result".utf8)), "lane-1. is not a prefix of lane-10's topics")
        #expect(!TopicPrefixes().takes(Array("lane-1.sale.result".utf8)))
        #expect(TopicPrefixes([""]).takesEverything)
        #expect(TopicPrefixes([""]).takes(Array("anything".utf8)))
    }

    @Test("a prefix held twice stays until it is let go of twice; one given twice is held once")
    func counted() {
        var prefixes = TopicPrefixes()
        prefixes.insert(Array("lane-1.".utf8))
        prefixes.insert(Array("lane-1.".utf8))
        prefixes.remove(Array("lane-1.".utf8))
        #expect(prefixes.takes(Array("lane-1.sale.result".utf8)))
        prefixes.remove(Array("lane-1.".utf8))
        #expect(prefixes.isEmpty)
        prefixes.remove(Array("lane-1.".utf8))
        #expect(prefixes.isEmpty, "letting go of a prefix not held changes nothing")
        #expect(TopicPrefixes(["a.", "a."]) == TopicPrefixes(["a."]))
    }

    @Test("the union of two viewers' filters keeps a shared prefix until both left")
    func union() {
        let first = TopicPrefixes(["lane-1.", "lane-2."])
        let second = TopicPrefixes(["lane-1."])
        var union = TopicPrefixes()
        union.formUnion(first)
        union.formUnion(second)
        union.subtract(first)
        #expect(union.takes(Array("lane-1.sale.result".utf8)))
        #expect(!union.takes(Array("lane-2.sale.result".utf8)))
        union.subtract(second)
        #expect(union.isEmpty)
    }

    @Test("a lane is followed when a prefix may take one of its topics")
    func lanes() {
        #expect(TopicPrefixes(["lane-1."]).mayTake(lane: "lane-1"))
        #expect(TopicPrefixes(["lane-1.sale.result"]).mayTake(lane: "lane-1"))
        #expect(TopicPrefixes(["lane"]).mayTake(lane: "lane-1"))
        #expect(TopicPrefixes(["lane-1"]).mayTake(lane: "lane-10"), "as its topics would be taken")
        #expect(!TopicPrefixes(["lane-1."]).mayTake(lane: "lane-10"))
        #expect(!TopicPrefixes(["lane-2."]).mayTake(lane: "lane-1"))
        #expect(!TopicPrefixes(["bridge."]).mayTake(lane: "lane-1"))
    }
}
