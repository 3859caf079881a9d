import Foundation

/// A small mutex for the few pieces of state shared across threads in this module.
final class Lock: @unchecked Sendable {
    private let mutex = NSLock()

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        mutex.lock()
        defer { mutex.unlock() }
        return try body()
    }
}
