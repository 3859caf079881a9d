import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// The bridge's way to its stop: running, draining until a deadline, stopping (docs/OPERATIONS.md).
@Suite("Shutdown phase")
struct ShutdownPhaseTests {
    @Test("a drain begins once, ends when nothing is in flight, and says how many were left at its deadline")
    func drain() {
        var phase = ShutdownPhase.running
        let whileRunning = phase.turnEnded(nowMs: 5, outstanding: 0)
        #expect(whileRunning == nil, "running never stops by itself")
        let began = phase.drain(deadlineMs: 100)
        let beganAgain = phase.drain(deadlineMs: 200)
        #expect(began && !beganAgain)
        #expect(phase == .draining(deadlineMs: 100) && !phase.isRunning)
        let early = phase.turnEnded(nowMs: 50, outstanding: 2)
        #expect(early == nil)
        let atDeadline = phase.turnEnded(nowMs: 100, outstanding: 2)
        #expect(atDeadline == 2)
        #expect(phase.isStopping)

        var idle = ShutdownPhase.draining(deadlineMs: 100)
        let nothingLeft = idle.turnEnded(nowMs: 1, outstanding: 0)
        #expect(nothingLeft == 0)
        #expect(idle.isStopping)
    }

    @Test("a stop ends the loop at once, and no drain begins after it")
    func stop() {
        var phase = ShutdownPhase.running
        phase.stop()
        #expect(phase.isStopping)
        let began = phase.drain(deadlineMs: 100)
        #expect(!began)
        #expect(phase == .stopping)
    }
}
