import BridgeClient
import InterApp
import Testing

@testable import vivabridge

/// A `lanes` reply holding `lanes`.
func lanesReply(_ lanes: [JSONValue]) -> JSONObject {
    ["id": "q", "action": "lanes", "outcome": "success", "result": ["lanes": .array(lanes)], "late": false]
}

let twoLanes = lanesReply([
    [
        "lane": "lane-1", "connected": true, "platform": "ios", "relay": nil, "inFlight": nil, "aborts": [],
        "openBatch": nil, "lastCallbackAt": nil,
    ],
    [
        "lane": "lane-2", "connected": false, "platform": "android", "relay": nil,
        "inFlight": ["action": "sale", "id": "pos-7", "state": "delivered"], "aborts": [],
        "openBatch": [
            "name": "morning", "id": "B7DD8AAD-25E4-4D9D-9904-7F62DBE256B4",
            "openedAt": "2024-05-01T07:00:00.000+00:00",
        ],
        "lastCallbackAt": "2024-05-01T09:59:58.000+00:00",
    ],
])

@Suite("vivabridge watch: the reducer (state + event -> state)")
struct WatchStateTests {
    @Test("heartbeats then two intervals of nothing: the bridge is shown silent, until it is heard again")
    func silentBridge() {
        var state = WatchState()
        let early = state.checkSilence(atMs: 60_000)
        #expect(!early, "no heartbeat heard yet: silence means nothing")
        state.heard(heartbeat: true, atMs: 10_000)
        state.heard(heartbeat: true, atMs: 11_000)
        #expect(state.heartbeatIntervalMs == 1000)
        let notYet = state.checkSilence(atMs: 12_900)
        #expect(!notYet)
        let now = state.checkSilence(atMs: 13_100)
        #expect(now)
        #expect(state.silent)
        let again = state.checkSilence(atMs: 20_000)
        #expect(!again, "said once")
        #expect(WatchTable.render(state, width: 100).contains("THE BRIDGE IS SILENT"))
        state.heard(heartbeat: true, atMs: 21_000)
        #expect(!state.silent)
        #expect(!WatchTable.render(state, width: 100).contains("SILENT"))
        #expect(state.notes.last == "the bridge is heard again")
    }

    @Test("a heartbeat's seq is followed: an event after it is no gap, and a heartbeat is no event of the table")
    func heartbeatSeqCounts() {
        var state = WatchState().applying(snapshot: twoLanes)
        let sale = state.receive(watchEvent("lane-1.sale.accepted", seq: 237, [("id", "s-1")]), atMs: 1_000)
        #expect(sale)
        let quiet = state.receive(watchEvent(Topic.heartbeat.description, seq: 238), atMs: 2_000)
        #expect(!quiet, "a heartbeat changes no row")
        let delivered = state.receive(watchEvent("lane-1.sale.delivered", seq: 239, [("id", "s-1")]), atMs: 3_000)
        #expect(delivered)
        #expect(state.notes.isEmpty, "\(state.notes)")
        #expect(!state.needsSnapshot)
        #expect(state.eventCount == 2)
        #expect(state.lastSeq == 239)
        // A heartbeat after a real gap, or from a restarted bridge, is noticed like any event.
        let gap = state.receive(watchEvent(Topic.heartbeat.description, seq: 245), atMs: 4_000)
        #expect(gap)
        #expect(state.notes.last == "seq jumped from 239 to 245 (missed 5 events): asking for the lanes again")
        #expect(state.needsSnapshot)
    }

    @Test("a new state asks for a snapshot; the snapshot fills the rows and stops asking")
    func snapshot() {
        let start = WatchState()
        #expect(start.needsSnapshot)
        let state = start.applying(snapshot: twoLanes)
        #expect(!state.needsSnapshot)
        #expect(state.lanes.map(\.id) == ["lane-1", "lane-2"])
        let two = state.lane("lane-2")
        #expect(two?.connected == false)
        #expect(two?.platform == "android")
        #expect(two?.inFlight == WatchState.Command(action: "sale", id: "pos-7"))
        #expect(two?.openBatch == "morning")
        #expect(two?.lastEventTime == "2024-05-01T09:59:58.000+00:00")
        #expect(state.lane("lane-1")?.inFlight == nil)
    }

    @Test("a cloud lane (transport cloud, v1.3) shows cloud where a relay lane shows its platform")
    func cloudLane() {
        let state = WatchState().applying(
            snapshot: lanesReply([
                [
                    "lane": "lane-4", "connected": true, "platform": "android", "transport": "cloud", "relay": nil,
                    "inFlight": nil, "aborts": [], "openBatch": nil, "lastCallbackAt": nil,
                ]
            ]))
        #expect(state.lane("lane-4")?.platform == "cloud")
        #expect(state.lane("lane-4")?.connected == true)
    }

    @Test("a sale's events: in flight from accepted, cleared by its result, which becomes the last result")
    func saleLifecycle() {
        var state = WatchState().applying(snapshot: twoLanes)
        state = state.applying(watchEvent("lane-1.sale.accepted", seq: 1, [("id", "s-1"), ("action", "sale")]))
        #expect(state.lane("lane-1")?.inFlight == WatchState.Command(action: "sale", id: "s-1"))
        state = state.applying(watchEvent("lane-1.sale.delivered", seq: 2, [("id", "s-1")]))
        state = state.applying(
            watchEvent(
                "lane-1.sale.result", seq: 3, time: "2024-05-01T10:42:09.000+00:00",
                [("id", "s-1"), ("outcome", "success")]))
        let lane = state.lane("lane-1")
        #expect(lane?.inFlight == nil)
        #expect(lane?.lastResult == WatchState.Result(action: "sale", id: "s-1", outcome: "success"))
        #expect(lane?.lastEventTime == "2024-05-01T10:42:09.000+00:00")
        #expect(state.eventCount == 3)
        #expect(state.lastSeq == 3)
        #expect(state.notes.isEmpty)
        #expect(!state.needsSnapshot)
    }

    @Test("an abort never takes the lane's in-flight slot; its result is the last result")
    func abortBesideSale() {
        var state = WatchState().applying(snapshot: twoLanes)
        state = state.applying(watchEvent("lane-1.sale.accepted", seq: 1, [("id", "s-1")]))
        state = state.applying(watchEvent("lane-1.abort.accepted", seq: 2, [("id", "a-1")]))
        #expect(state.lane("lane-1")?.inFlight?.id == "s-1")
        state = state.applying(watchEvent("lane-1.sale.result", seq: 3, [("id", "s-1"), ("outcome", "aborted")]))
        state = state.applying(watchEvent("lane-1.abort.result", seq: 4, [("id", "a-1"), ("outcome", "success")]))
        #expect(state.lane("lane-1")?.inFlight == nil)
        #expect(state.lane("lane-1")?.lastResult == WatchState.Result(action: "abort", id: "a-1", outcome: "success"))
    }

    @Test("unknown, then late_result; links; batches; orphans and returns are noted")
    func otherEvents() {
        var state = WatchState().applying(snapshot: twoLanes)
        state = state.applying(watchEvent("lane-1.sale.accepted", seq: 1, [("id", "s-2")]))
        state = state.applying(watchEvent("lane-1.sale.unknown", seq: 2, [("id", "s-2"), ("outcome", "unknown")]))
        #expect(state.lane("lane-1")?.lastResult?.outcome == "unknown")
        #expect(state.lane("lane-1")?.inFlight == nil)
        state = state.applying(watchEvent("lane-1.sale.late_result", seq: 3, [("id", "s-2"), ("outcome", "success")]))
        #expect(
            state.lane("lane-1")?.lastResult
                == WatchState.Result(action: "sale", id: "s-2", outcome: "success", late: true))
        state = state.applying(watchEvent("lane-2.lane.connected", seq: 4))
        #expect(state.lane("lane-2")?.connected == true)
        state = state.applying(watchEvent("lane-1.lane.disconnected", seq: 5))
        #expect(state.lane("lane-1")?.connected == false)
        state = state.applying(watchEvent("lane-1.batch.opened", seq: 6, [("batchName", "evening"), ("batchId", "X")]))
        #expect(state.lane("lane-1")?.openBatch == "evening")
        state = state.applying(
            watchEvent("lane-2.batch.closed", seq: 7, [("batchName", "morning"), ("reason", "command")]))
        #expect(state.lane("lane-2")?.openBatch == nil)
        state = state.applying(watchEvent("lane-1.sale.orphan", seq: 8))
        state = state.applying(watchEvent("lane-2.lane.returned", seq: 9))
        #expect(
            state.notes == [
                "lane-1: a sale callback matched no command (orphan)",
                "lane-2: the store app came back with no callback",
            ])
        state = state.applying(watchEvent("lane-3.lane.connected", seq: 10))
        #expect(state.lanes.map(\.id) == ["lane-1", "lane-2", "lane-3"], "a lane first seen in an event gets a row")
        #expect(!state.needsSnapshot)
    }

    @Test("a reload's lane events: added gets a row, changed takes the new platform, removed drops the row")
    func reloadedLanes() {
        var state = WatchState().applying(snapshot: twoLanes)
        state = state.applying(
            watchEvent(
                "lane-3.lane.added", seq: 1, [("endpoint", "tcp://x:1"), ("platform", "ios"), ("transport", "relay")]))
        #expect(state.lanes.map(\.id) == ["lane-1", "lane-2", "lane-3"])
        #expect(state.lane("lane-3")?.connected == false)
        #expect(state.lane("lane-3")?.platform == "ios")
        state = state.applying(
            watchEvent(
                "lane-2.lane.changed", seq: 2,
                [("endpoint", "tcp://127.0.0.1:6001"), ("platform", "ios"), ("transport", "relay")]))
        #expect(state.lane("lane-2")?.platform == "ios")
        state = state.applying(
            watchEvent(
                "lane-2.lane.changed", seq: 3,
                [("endpoint", "viva-cloud:16000002"), ("platform", "android"), ("transport", "cloud")]))
        #expect(state.lane("lane-2")?.platform == "cloud", "a lane a reload made a cloud lane shows its transport")
        state = state.applying(watchEvent("lane-1.lane.removed", seq: 4))
        #expect(state.lanes.map(\.id) == ["lane-2", "lane-3"])
        #expect(
            state.notes.suffix(2) == [
                "lane-3: added by a reload of the bridge's configuration",
                "lane-1: removed by a reload of the bridge's configuration",
            ])
    }

    @Test("an event that breaks the contract is noted with the member at fault, not read into the rows")
    func brokenEvent() {
        var state = WatchState().applying(snapshot: twoLanes)
        state = state.applying(watchEvent("lane-1.sale.accepted", seq: 1, [("id", "s-1")]))
        // `outcome` must be one of the contract's outcomes: a number is not read as some outcome. (The body is
        // broken after `watchEvent`, which records only what it builds, for scripts/check-contract.)
        var result = watchEvent("lane-1.sale.result", seq: 2, [("id", "s-1")]).body
        result["outcome"] = 42
        state = state.applying(BridgeEvent(topic: "lane-1.sale.result", body: result))
        let lane = state.lane("lane-1")
        #expect(lane?.lastResult == nil, "\(String(describing: lane?.lastResult))")
        #expect(lane?.inFlight == WatchState.Command(action: "sale", id: "s-1"))
        #expect(state.notes.count == 1)
        #expect(state.notes.last?.hasPrefix("lane-1.sale.result does not follow the contract (outcome: ") == true)
        #expect(state.needsSnapshot, "the rows may have missed what it said")
        #expect(state.eventCount == 2)
        #expect(state.lastSeq == 2, "its seq is still followed")
        // A link event without its `endpoint` is no more read than a result without its outcome.
        var body = watchEvent("lane-2.lane.connected", seq: 3).body
        body["endpoint"] = nil
        state = state.applying(BridgeEvent(topic: "lane-2.lane.connected", body: body))
        #expect(state.lane("lane-2")?.connected == false)
        #expect(state.notes.last?.hasPrefix("lane-2.lane.connected does not follow the contract (endpoint: ") == true)
        // The next event follows on: no gap is noticed.
        state = state.applying(snapshot: twoLanes)
        state = state.applying(watchEvent("lane-2.lane.connected", seq: 4))
        #expect(state.notes.count == 2)
        #expect(!state.needsSnapshot)
    }

    @Test("a gap in seq is noticed, said, and makes it ask for the lanes again")
    func seqGap() {
        var state = WatchState().applying(snapshot: twoLanes)
        state = state.applying(watchEvent("lane-1.sale.accepted", seq: 41, [("id", "s-1")]))
        state = state.applying(watchEvent("lane-1.sale.forwarded", seq: 42, [("id", "s-1")]))
        #expect(!state.needsSnapshot)
        state = state.applying(watchEvent("lane-1.sale.result", seq: 45, [("id", "s-1"), ("outcome", "success")]))
        #expect(state.needsSnapshot)
        #expect(state.notes == ["seq jumped from 42 to 45 (missed 2 events): asking for the lanes again"])
        #expect(state.lane("lane-1")?.lastResult?.outcome == "success", "the event itself still counts")
        state = state.applying(snapshot: twoLanes)
        #expect(!state.needsSnapshot)
        state = state.applying(watchEvent("lane-1.sale.accepted", seq: 46, [("id", "s-2")]))
        #expect(!state.needsSnapshot)
    }

    @Test("a new epoch (the bridge restarted) is noticed and makes it ask again, even with seq back at 1")
    func epochChange() {
        var state = WatchState().applying(snapshot: twoLanes)
        state = state.applying(watchEvent("lane-1.lane.connected", seq: 7, epoch: 3))
        state = state.applying(watchEvent("lane-1.lane.connected", seq: 1, epoch: 4))
        #expect(state.needsSnapshot)
        #expect(state.notes == ["the bridge restarted (epoch 3 -> 4): asking for the lanes again"])
        #expect(state.epoch == 4)
        #expect(state.lastSeq == 1)
    }

    @Test("with a lane filter, seq gaps are expected (other lanes' events) but a restart is still noticed")
    func laneFilter() {
        var state = WatchState(laneFilter: "lane-2").applying(snapshot: twoLanes)
        #expect(state.lanes.map(\.id) == ["lane-2"])
        state = state.applying(watchEvent("lane-2.sale.accepted", seq: 3, [("id", "x")]))
        state = state.applying(
            watchEvent("lane-2.sale.result", seq: 9, [("id", "x"), ("outcome", "failure"), ("reason", "declined")]))
        #expect(!state.needsSnapshot)
        #expect(state.notes.isEmpty)
        state = state.applying(watchEvent("lane-2.lane.connected", seq: 1, epoch: 2))
        #expect(state.needsSnapshot)
    }

    @Test("a failed lanes query is noted and asked again")
    func failedSnapshot() {
        let reply: JSONObject = [
            "id": "q", "action": "lanes", "outcome": "rejected",
            "error": ["code": "shutting_down", "message": "the bridge is shutting down"],
        ]
        let state = WatchState().applying(snapshot: reply)
        #expect(state.needsSnapshot)
        #expect(state.notes == ["the lanes query failed: the bridge is shutting down"])
    }

    @Test("notes keep the last five")
    func noteLimit() {
        var state = WatchState()
        for index in 1...7 { state = state.noting("note \(index)") }
        #expect(state.notes == ["note 3", "note 4", "note 5", "note 6", "note 7"])
    }
}
