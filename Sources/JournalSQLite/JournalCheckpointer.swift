import BridgeCore
import BridgeJournal
import Foundation
import GRDB
import GRDBSQLite
import Synchronization
import ZeroMQ

/// Moves SQLite's WAL checkpoints off the bridge's loop thread.
///
/// The loop's own connection runs with `wal_autocheckpoint = 0`; this thread, on a connection of its
/// own, copies the WAL back into the database every `intervalMs` with a PASSIVE checkpoint, which never
/// blocks the writer. Left to SQLite, the checkpoint ran inside one of the loop's commits every thousand
/// pages: three `fdatasync`s and a 4 to 5 ms stall of every lane at once (docs/PERFORMANCE.md).
///
/// A PASSIVE checkpoint cannot rewind the WAL while the writer keeps appending, so under steady load
/// the file would grow without end. Once it holds more than `restartFrames` frames, a RESTART
/// checkpoint makes the writer wait for the few frames left (the PASSIVE ones copied the rest) so that
/// the next commit starts the WAL again from its beginning: one short pause per 64 MB of journal (about 3 ms
/// on this VM's ext4, since the database file is synced and the last frames copied before it,
/// ``syncDatabaseFile(_:)``). While the
/// WAL holds more than ``busyFrames``, it checkpoints every ``busyIntervalMs`` rather than every interval.
package final class JournalCheckpointer: Sendable {
    /// The WAL size, in frames (pages), past which a checkpoint rewinds it (64 MB at 4 KB pages).
    static let restartFrames = 16_384
    /// The WAL file's size past which a rewound WAL is cut back (`journal_size_limit`): twice the size a
    /// RESTART rewinds, so that under load the file is reused as it is rather than cut to 64 MB and grown
    /// again past it after every RESTART; on this VM's ext4 the growing cost the saturated p99 1-2 ms
    /// (docs/PERFORMANCE.md 6.12). A WAL grown further (a burst in the second before the checkpoints speed
    /// up, a long reader) is cut back to it: the file stays at 128 MB under load (`--only scale`).
    static let walSizeLimitBytes = 2 * restartFrames * 4096
    /// Past this many frames (8 MB) the WAL is checkpointed every ``busyIntervalMs`` instead of every interval.
    static let busyFrames = 2048
    /// The checkpoint interval while the WAL is past ``busyFrames``.
    static let busyIntervalMs = 100

    private let stopSignal = DispatchSemaphore(value: 0)
    private let restartCount = RestartCount()
    /// How many RESTART checkpoints have rewound the WAL since the checkpointer started (not counting
    /// those a reader held back).
    var restarts: Int { restartCount.value.load(ordering: .relaxed) }

    private final class RestartCount: Sendable {
        let value = Atomic<Int>(0)
    }
    private let thread: LoopThread

    /// Starts checkpointing the journal at `path`; `restartFrames` (tests) is the WAL size that makes a
    /// checkpoint rewind it.
    package init(path: String, intervalMs: Int = 1000, restartFrames: Int = JournalCheckpointer.restartFrames)
        throws
    {
        var configuration = Configuration()
        // A RESTART holds the writers back while it waits for readers: it must notice them gone at once.
        configuration.busyMode = .callback(Journal.retryWhileBusy)
        let database = try DatabaseQueue(path: path, configuration: configuration)
        let stopSignal = stopSignal
        let restartCount = restartCount
        thread = LoopThread.start(name: "journal-checkpoint") {
            var waitMs = intervalMs
            var position = PositionRecorder(journal: path)
            while stopSignal.wait(timeout: .now() + .milliseconds(waitMs)) == .timedOut {
                let frames = try? database.writeWithoutTransaction { db -> Int in
                    // Read before the checkpoint, recorded after it: the WAL is synced before a checkpoint
                    // copies it, so what the position names is on disk.
                    let reached = try? JournalPosition.read(db)
                    defer { position.record(reached) }
                    let frames = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)")?[1] as Int? ?? 0
                    if frames > restartFrames {
                        // What the RESTART does while the writer waits is kept to the last few frames: the
                        // database file synced, then the frames appended meanwhile copied, without a lock.
                        Self.syncDatabaseFile(db)
                        try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)")
                        // (busy, log, checkpointed): busy 1 when a reader kept it from rewinding the WAL.
                        let restart = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(RESTART)")
                        if restart?[0] as Int? == 0 { restartCount.value.add(1, ordering: .relaxed) }
                    }
                    return frames
                }
                // Under load the WAL grows by up to 100 MB a second (the journal writer commits on its own
                // thread): checkpointing every 100 ms then keeps it near 64 MB and each RESTART short.
                waitMs = (frames ?? 0) > Self.busyFrames ? min(intervalMs, Self.busyIntervalMs) : intervalMs
            }
            try? database.writeWithoutTransaction { db in
                let reached = try? JournalPosition.read(db)
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                position.record(reached)
            }
            // Closed before `stop()` returns, not whenever the thread's closure is released: closing takes the
            // file's lock, and the next user of the journal may be opening it right then.
            try? database.close()
        }
    }

    /// Flushes the database file to disk through SQLite's own handle of it (no second descriptor, whose
    /// close would drop the process's locks on the file), while no lock is held.
    ///
    /// A PASSIVE checkpoint that does not reach the end of the WAL (the writer keeps appending) copies
    /// frames into the database file without syncing it: the RESTART that ends the run syncs everything
    /// copied since the last one, holding the writers back meanwhile. Measured on this VM's ext4: a 10 ms
    /// `fdatasync` every second under load, every lane stalled (docs/PERFORMANCE.md 6.12). Synced here
    /// first, the RESTART has only its last few frames to sync.
    /// Returns whether the file was synced.
    @discardableResult
    static func syncDatabaseFile(_ db: Database) -> Bool {
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
            let file, let sync = file.pointee.pMethods?.pointee.xSync
        else { return false }
        return sync(file, SQLITE_SYNC_NORMAL | SQLITE_SYNC_DATAONLY) == SQLITE_OK
    }

    /// Stops after a last, complete checkpoint; returns when the thread has ended.
    package func stop() {
        stopSignal.signal()
        thread.join()
    }

    /// Writes the journal's position beside it when a checkpoint moved it (``JournalPositionFile``), never
    /// with a lower epoch than the file had.
    private struct PositionRecorder {
        let journal: String
        var written: JournalPosition?

        init(journal: String) {
            self.journal = journal
            written = try? JournalPositionFile.read(journal: journal)
        }

        mutating func record(_ reached: JournalPosition?) {
            guard var reached else { return }
            reached.epoch = max(reached.epoch, written?.epoch ?? 0)
            guard reached != written else { return }
            // Not synced: a position lost with the machine is only older, and an older one refuses nothing.
            if (try? JournalPositionFile.write(reached, journal: journal, durably: false)) != nil { written = reached }
        }
    }
}
