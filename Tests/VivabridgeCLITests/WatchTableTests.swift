import InterApp
import Testing

@testable import vivabridge

@Suite("vivabridge watch: the table (state + width -> text) and --json lines")
struct WatchTableTests {
    @Test("given a snapshot and a sale's events, the table reads as expected")
    func table() {
        var state = WatchState().applying(snapshot: twoLanes)
        state = state.applying(watchEvent("lane-1.sale.accepted", seq: 1, [("id", "s-1")]))
        state = state.applying(
            watchEvent(
                "lane-1.sale.result", seq: 2, time: "2024-05-01T10:42:09.000+00:00",
                [("id", "s-1"), ("outcome", "success")]))
        let expected = """
            LANE    LINK  IN FLIGHT   LAST RESULT       BATCH    LAST EVENT
            lane-1  up    -           sale success s-1  -        10:42:09
            lane-2  down  sale pos-7  -                 morning  09:59:58
            2 events, epoch 1, last seq 2

            """
        #expect(WatchTable.render(state, width: 100) == expected)
    }

    @Test("a gap shows as a note under the table; a late result is marked")
    func notes() {
        var state = WatchState().applying(snapshot: lanesReply([["lane": "a", "connected": true, "platform": "ios"]]))
        state = state.applying(watchEvent("a.sale.unknown", seq: 5, [("id", "x"), ("outcome", "unknown")]))
        state = state.applying(watchEvent("a.sale.late_result", seq: 8, [("id", "x"), ("outcome", "success")]))
        let expected = """
            LANE  LINK  IN FLIGHT  LAST RESULT            BATCH  LAST EVENT
            a     up    -          sale success (late) x  -      10:42:03
            2 events, epoch 1, last seq 8
            note: seq jumped from 5 to 8 (missed 2 events): asking for the lanes again

            """
        #expect(WatchTable.render(state, width: 100) == expected)
    }

    @Test("a narrow terminal cuts the long columns (marked ~), never past their minimum")
    func narrow() {
        var state = WatchState().applying(snapshot: twoLanes)
        state = state.applying(watchEvent("lane-1.sale.accepted", seq: 1, [("id", "cli-1717171717171-aaaa")]))
        state = state.applying(
            watchEvent("lane-2.sale.result", seq: 2, [("id", "cli-1717171717171-3fa2"), ("outcome", "success")]))
        let wide = WatchTable.render(state, width: 200).split(separator: "\n")
        #expect(wide.allSatisfy { !$0.contains("~") })
        let lines = WatchTable.render(state, width: 60).split(separator: "\n")
        #expect(lines.prefix(3).allSatisfy { $0.count <= 60 }, "\(lines)")
        // 99 columns wide at rest: the last result gives up characters down to its minimum (12), the
        // command in flight the rest.
        #expect(lines[1] == "lane-1  up    sale cli-1~  -             -        10:42:03")
        #expect(lines[2].hasPrefix("lane-2  down  sale pos-7   sale succes~  morning"))
        #expect(lines[0].hasPrefix("LANE    LINK  IN FLIGHT"))
        // Far too narrow: the columns stop at their minimum instead of disappearing.
        let tiny = WatchTable.render(state, width: 10).split(separator: "\n")
        #expect(tiny[0].contains("LAST RESULT"))
    }

    @Test("before any snapshot or event, it says what it waits for")
    func empty() {
        #expect(
            WatchTable.render(WatchState(), width: 80)
                == "(no lanes yet: waiting for the bridge's lanes snapshot or an event)\n0 events\n")
    }

    @Test("--json: one line per event, {\"topic\":…,\"event\":{…}}, the body's keys and numbers as sent")
    func jsonLine() {
        let body = Array(
            #"{"seq":12,"epoch":3,"time":"2024-05-01T10:42:03.120+03:00","lane":"lane-1","amount":1200}"#.utf8)
        let line = WatchJSONLine.line(topic: "lane-1.sale.result", body: body)
        #expect(
            line
                == #"{"topic":"lane-1.sale.result","event":{"seq":12,"epoch":3,"time":"2024-05-01T10:42:03.120+03:00","lane":"lane-1","amount":1200}}"#
        )
        #expect(!line.contains("\n"))
        #expect(
            WatchJSONLine.line(topic: "x.y.z", body: Array("not json".utf8)) == #"{"topic":"x.y.z","raw":"not json"}"#)
    }
}
