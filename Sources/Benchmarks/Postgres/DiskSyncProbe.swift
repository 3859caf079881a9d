import Foundation

/// The disk's own `fdatasync`, timed beside the PostgreSQL cluster's data: 8 KiB written at the same place
/// of a file and synced, again and again. A commit with `synchronous_commit` on waits for one such sync of
/// the WAL, so a sale on PostgreSQL (two commits) cannot add less than two of them: the paced p99 added is
/// judged as a multiple of this p99 (docs/PERFORMANCE.md).
enum DiskSyncProbe {
    /// Syncs timed.
    static let count = 500

    /// Times ``count`` syncs of a new file in `folder` (removed at the end); figures in microseconds.
    static func measure(folder: String) throws -> LatencySummary {
        let path = folder + "/vivabridge-fsync-probe"
        let descriptor = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw BenchError("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer {
            close(descriptor)
            unlink(path)
        }
        let block = [UInt8](repeating: 0x5A, count: 8192)
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let start = Monotonic.now()
            let written = block.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            guard written == block.count, fdatasync(descriptor) == 0 else {
                throw BenchError("writing and syncing \(path): \(String(cString: strerror(errno)))")
            }
            samples.append(Monotonic.now() - start)
        }
        return LatencySummary(samples: samples)
    }
}
