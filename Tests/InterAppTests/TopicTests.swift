import InterApp
import Testing

@Suite("Topics: spelled in one place, read back the same")
struct TopicTests {
    @Test("every topic of PROTOCOL.md §4 is what the contract spells")
    func spelled() {
        #expect(Topic.command(lane: "lane-1", action: "sale", .lateResult).description == "lane-1.sale.late_result")
        #expect(Topic.command(lane: "lane-1", action: "abort", .accepted).description == "lane-1.abort.accepted")
        #expect(Topic.lane("lane-2", .disconnected).description == "lane-2.lane.disconnected")
        #expect(Topic.batch(lane: "lane-3", .closed).description == "lane-3.batch.closed")
        #expect(Topic.command(lane: Topic.bridgeLane, action: "ping", .result).description == "bridge.ping.result")
        #expect(Topic.prefix(lane: "lane-1") == "lane-1.")
        #expect(Topic.prefix(lane: Topic.bridgeLane, subject: Topic.journalSubject) == "bridge.journal.")
    }

    @Test("a SUB prefix takes the topics that start with it, and may take a lane's when it overlaps its prefix")
    func prefixRule() {
        let topic = Topic.command(lane: "lane-1", action: "sale", .result).utf8[...]
        for prefix in ["", "lane-1", "lane-1.", "lane-1.sale.result"] {
            #expect(Topic.prefix(Array(prefix.utf8), takes: topic), "\(prefix)")
        }
        for prefix in ["lane-10.", "lane-1.sale.result.", "bridge."] {
            #expect(!Topic.prefix(Array(prefix.utf8), takes: topic), "\(prefix)")
        }
        for prefix in ["", "lane", "lane-1", "lane-1.", "lane-1.sale."] {
            #expect(Topic.prefix(Array(prefix.utf8), mayTakeTopicsOf: "lane-1"), "\(prefix)")
        }
        for prefix in ["lane-10.", "lane-2.", "bridge."] {
            #expect(!Topic.prefix(Array(prefix.utf8), mayTakeTopicsOf: "lane-1"), "\(prefix)")
        }
    }

    @Test("a received topic reads back into its parts and kind")
    func parsed() throws {
        for event in Topic.CommandEvent.allCases {
            let topic = Topic.command(lane: "l", action: "sale", event)
            let read = try #require(Topic(parsing: topic.description))
            #expect(read == topic)
            #expect(read.commandEvent == event)
            #expect(read.laneEvent == nil && read.batchEvent == nil)
        }
        #expect(Topic(parsing: "l.lane.returned")?.laneEvent == .returned)
        #expect(Topic(parsing: "l.batch.opened")?.batchEvent == .opened)
        #expect(Topic(parsing: "l.lane.opened")?.commandEvent == nil)
        #expect(Topic(parsing: "no-dots") == nil)
        #expect(Topic(parsing: "a.b.c.d")?.event == "c.d")
    }
}
