import Foundation
import Synchronization
import Testing
import ZeroMQ

/// The one thread primitive of the bridge, the simulator, the ZAP handler and the checkpointer.
@Suite("LoopThread: set-up on the new thread, its outcome handed back, the end awaited")
struct LoopThreadTests {
    private struct SetUpFailed: Error, Equatable { let reason: String }

    @Test("start returns the set-up's report; the loop runs on the thread that made it, not the caller's")
    func startAndRun() throws {
        let threads = Mutex<[UInt]>([])
        let (thread, report) = LoopThread.start(name: "loop-under-test") {
            () -> (loop: String, report: Int) in
            threads.withLock { $0.append(UInt(pthread_self())) }
            return ("made on the thread", 42)
        } run: { loop in
            #expect(loop == "made on the thread")
            threads.withLock { $0.append(UInt(pthread_self())) }
        }
        #expect(report == 42)
        thread.join()
        let seen = threads.withLock { $0 }
        #expect(seen.count == 2)
        #expect(Set(seen).count == 1)
        #expect(seen.first != UInt(pthread_self()))
    }

    @Test("a set-up that throws: start throws the same error, after the thread ended, and run never runs")
    func failedSetUp() {
        let ran = Atomic<Bool>(false)
        #expect(throws: SetUpFailed(reason: "port taken")) {
            _ = try LoopThread.start(name: "failing") { () throws(SetUpFailed) -> (loop: Void, report: Void) in
                throw SetUpFailed(reason: "port taken")
            } run: { _ in
                ran.store(true, ordering: .relaxed)
            }
        }
        let didRun = ran.load(ordering: .relaxed)
        #expect(!didRun)
    }

    @Test("join returns only after the loop ended, and any number of callers may join")
    func joinWaitsForTheEnd() {
        let release = DispatchSemaphore(value: 0)
        let ended = Atomic<Bool>(false)
        let thread = LoopThread.start(name: "waits") {
            release.wait()
            ended.store(true, ordering: .releasing)
        }
        let joiners = (0..<3).map { index in
            LoopThread.start(name: "joiner-\(index)") {
                thread.join()
                let hasEnded = ended.load(ordering: .acquiring)
                #expect(hasEnded)
            }
        }
        release.signal()
        for joiner in joiners { joiner.join() }
        thread.join()
        let hasEnded = ended.load(ordering: .acquiring)
        #expect(hasEnded)
    }
}
