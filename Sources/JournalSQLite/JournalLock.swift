import BridgeCore
import BridgeJournal
import Foundation

/// One bridge per journal: an exclusive `flock` on `<journal>.lock`, holding the owner's pid. The kernel
/// releases it when the process ends, however it ends, so a crashed bridge never leaves it behind.
package final class JournalLock {
    /// The lock file, open while the lock is held; -1 once released.
    private var descriptor: Int32

    /// Takes the lock of the journal at `path`.
    ///
    /// - Throws: ``JournalError`` (``JournalError/isInUse``) naming the holder's pid when another bridge
    ///   has it.
    package init(journal path: String) throws(JournalError) {
        let lockPath = path + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw JournalError(
                path: path, "cannot create its lock file \(lockPath): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.readPid(descriptor)
            close(descriptor)
            throw JournalError(
                path: path,
                "is in use by another bridge (pid \(holder.map(String.init) ?? "unknown")); one bridge per journal",
                code: .inUse)
        }
        ftruncate(descriptor, 0)
        let pid = Array("\(getpid())\n".utf8)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        self.descriptor = descriptor
    }

    private static func readPid(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 31, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Lets go of the lock (the process ending does the same). Releasing twice is harmless: a journal
    /// that fails to open releases it, then its `deinit` closes it again, and a second `close` would
    /// close whatever file took the descriptor's number meanwhile (another thread's socket or database).
    package func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }
}
