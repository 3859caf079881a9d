import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// How many ZeroMQ I/O threads a bridge starts with (docs/OPERATIONS.md, "Open files"): libzmq's heartbeat timers
/// cost in proportion to the links of one I/O thread, so many lanes get more threads.
@Suite("ZeroMQ I/O threads by lanes")
struct IOThreadsTests {
    @Test("one thread up to 1,250 lanes, one more for each 1,250 after, at most 8")
    func threadsByLanes() {
        #expect(Bridge.ioThreads(lanes: 0) == 1)
        #expect(Bridge.ioThreads(lanes: 1) == 1)
        #expect(Bridge.ioThreads(lanes: 1250) == 1)
        #expect(Bridge.ioThreads(lanes: 1251) == 2)
        #expect(Bridge.ioThreads(lanes: 10_000) == 8)
        #expect(Bridge.ioThreads(lanes: 50_000) == 8)
    }
}
