import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// How the journal's connections wait for a lock another connection holds (issue 17): short naps first, so
/// that a commit held up by a checkpoint's last step goes on as soon as the lock is free, and 5 s in all.
@Suite("Journal busy waits: short naps, 5 s in all")
struct JournalBusyTests {
    @Test("the first 5 ms are spent in naps of 50 µs, then 1 ms each, and a connection gives up after 5 s")
    func napsThenGivesUp() {
        var naps: [UInt32] = []
        var tries = 0
        while let nap = Journal.busyNapMicroseconds(afterTries: tries) {
            naps.append(nap)
            tries += 1
        }
        #expect(naps.prefix(100).allSatisfy { $0 == 50 })
        #expect(naps.dropFirst(100).allSatisfy { $0 == 1000 })
        let total = naps.reduce(0) { $0 + Int($1) }
        #expect((4_990_000...5_010_000).contains(total), "\(total) µs")
    }
}
