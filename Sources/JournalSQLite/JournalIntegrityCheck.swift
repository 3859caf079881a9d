import BridgeCore
import BridgeJournal
import GRDB
import Synchronization
import ZeroMQ

/// The check `journal check` makes (``JournalMaintenance/integrityProblems(_:limit:)``), run at the journal's
/// open on a read-only connection and a thread of their own, beside the reading of the log's places: each
/// takes about a second on a journal of a million commands, so the start waits for the longer one, not both.
final class JournalIntegrityCheck: Sendable {
    private let thread: LoopThread
    private let outcome = Outcome()

    /// What the check found, once it ended.
    private final class Outcome: Sendable {
        let result = Mutex<Result<[String], any Error>?>(nil)
    }

    /// Starts checking the journal at `path`.
    package init(path: String) {
        let outcome = outcome
        thread = LoopThread.start(name: "journal-check") {
            let result = Result<[String], any Error> {
                var configuration = Configuration()
                configuration.readonly = true
                configuration.busyMode = .timeout(5)
                let reader = try DatabaseQueue(path: path, configuration: configuration)
                defer { try? reader.close() }
                return try reader.read { db in try JournalMaintenance.integrityProblems(db, limit: 10) }
            }
            outcome.result.withLock { $0 = result }
        }
    }

    /// Waits for the check; throws when the journal at `path` is damaged, or could not be checked.
    func refuseDamaged(path: String) throws {
        thread.join()
        let problems = try outcome.result.withLock { $0 }?.get() ?? ["the check did not run"]
        guard problems != ["ok"] else { return }
        throw JournalError(
            path: path,
            "is damaged (integrity_check: \(problems.prefix(3).joined(separator: "; "))); the bridge will not serve "
                + "it. Restore it from a backup, or run `vivabridge journal new --journal \(path)` to set it aside and "
                + "start a new journal; `vivabridge journal check --journal \(path)` lists every problem")
    }

    deinit { thread.join() }
}
