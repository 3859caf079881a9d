import Foundation
import Synchronization

/// A named thread running one closure, whose result ``join()`` waits for.
final class Worker<T: Sendable>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let value = Mutex<T?>(nil)

    init(name: String, _ body: @escaping @Sendable () -> T) {
        let thread = Thread { [self] in
            ThreadCPU.nameCurrentThread(name)
            let result = body()
            value.withLock { $0 = result }
            done.signal()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    func join() -> T {
        done.wait()
        done.signal()
        return value.withLock { $0! }
    }
}

/// A flag one thread raises and others poll.
final class StopFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    func raise() { raised.store(true, ordering: .releasing) }
    var isRaised: Bool { raised.load(ordering: .acquiring) }
}

/// A count shared by the load clients (sales completed in a counted run).
final class SharedCounter: Sendable {
    private let value = Atomic<Int>(0)
    @discardableResult
    func add(_ amount: Int) -> Int { value.add(amount, ordering: .relaxed).newValue }
    var current: Int { value.load(ordering: .relaxed) }
}

/// A one-shot hand-over of a value between threads, with a timeout.
final class Handover<T: Sendable>: Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private let value = Mutex<T?>(nil)

    func put(_ newValue: T) {
        value.withLock { $0 = newValue }
        ready.signal()
    }

    func take(timeoutSeconds: Double) -> T? {
        guard ready.wait(timeout: .now() + timeoutSeconds) == .success else { return nil }
        return value.withLock { $0 }
    }
}

/// Counts the lanes that said hello, and lets a thread wait until every lane did.
///
/// `@unchecked`: its state is guarded by the `NSCondition` it waits on (a `Mutex` cannot be waited on).
final class LaneReadiness: @unchecked Sendable {
    private let condition = NSCondition()
    private var seen: [Bool]
    private var count = 0

    init(lanes: Int) { seen = Array(repeating: false, count: lanes) }

    func mark(_ lane: Int) {
        condition.lock()
        defer { condition.unlock() }
        guard !seen[lane] else { return }
        seen[lane] = true
        count += 1
        if count == seen.count { condition.broadcast() }
    }

    func waitForAll(timeoutSeconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        condition.lock()
        defer { condition.unlock() }
        while count < seen.count {
            if !condition.wait(until: deadline) { return count == seen.count }
        }
        return true
    }
}
