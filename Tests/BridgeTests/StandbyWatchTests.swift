import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// What a standby says of its polls of the lease (``StandbyWatch``): the holder once, and again when it
/// changes; a database that cannot be reached once, and that it answers again.
@Suite("A standby's lines about the lease")
struct StandbyWatchTests {
    private static func holder(_ instance: String, epoch: Int = 3) -> LeaseHolder {
        LeaseHolder(instance: instance, epoch: epoch, running: true)
    }

    @Test("the holder is named at the first answer, not again while it stays, again when another takes it")
    func holderNamedOnce() {
        var watch = StandbyWatch(announce: true)
        let first = watch.answered(holder: Self.holder("a"))
        let again = watch.answered(holder: Self.holder("a"))
        let other = watch.answered(holder: Self.holder("b", epoch: 4))
        #expect(first == [.standby(holder: "a", epoch: 3)])
        #expect(again == [])
        #expect(other == [.standby(holder: "b", epoch: 4)])
    }

    @Test("without announce, the first answer names a holder only when there is one")
    func quietStart() {
        var watch = StandbyWatch(announce: false)
        let none = watch.answered(holder: nil)
        let some = watch.answered(holder: Self.holder("a"))
        #expect(none == [])
        #expect(some == [.standby(holder: "a", epoch: 3)])
    }

    @Test("unreachable is said once; answering again is said, and the holder only when it changed")
    func unreachableOnce() {
        var watch = StandbyWatch(announce: true)
        _ = watch.answered(holder: Self.holder("a"))
        let firstFailure = watch.failed()
        let secondFailure = watch.failed()
        let back = watch.answered(holder: Self.holder("a"))
        let thirdFailure = watch.failed()
        let backToAnother = watch.answered(holder: Self.holder("b"))
        #expect(firstFailure && !secondFailure && thirdFailure)
        #expect(back == [.databaseAnswers])
        #expect(backToAnother == [.databaseAnswers, .standby(holder: "b", epoch: 3)])
    }
}
