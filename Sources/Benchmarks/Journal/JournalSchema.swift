import Foundation
import GRDB

/// The bridge journal's schema, statements and set-up (Sources/Bridge/Journal/Journal.swift, migration `v1`,
/// and JournalCheckpointer.swift), copied so the benchmark can drive SQLite through GRDB as the bridge does.
/// Keep it in step.
enum JournalSchema {
    static let create = """
        CREATE TABLE commands (
            id TEXT PRIMARY KEY NOT NULL,
            lane TEXT,
            action TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            client_transaction_id TEXT,
            state TEXT NOT NULL,
            outcome TEXT,
            reply TEXT,
            late INTEGER NOT NULL DEFAULT 0,
            deadline_ms INTEGER,
            created_ms INTEGER NOT NULL,
            updated_ms INTEGER NOT NULL
        );
        CREATE INDEX commands_outstanding ON commands(state) WHERE state != 'final';
        CREATE INDEX commands_unknown_sales ON commands(lane, client_transaction_id)
            WHERE outcome = 'unknown';
        CREATE TABLE callbacks (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            lane TEXT NOT NULL,
            received_ms INTEGER NOT NULL,
            fields TEXT NOT NULL,
            matched_id TEXT,
            disposition TEXT NOT NULL
        );
        CREATE TABLE batches (
            lane TEXT PRIMARY KEY NOT NULL,
            name TEXT,
            batch_id TEXT,
            opened_ms INTEGER NOT NULL
        );
        CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
        """

    static let insertCommand = """
        INSERT INTO commands(id, lane, action, fingerprint, client_transaction_id, state, outcome, reply,
            deadline_ms, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let insertCallback =
        "INSERT INTO callbacks(lane, received_ms, fields, matched_id, disposition) VALUES (?, ?, ?, ?, ?)"
    static let finalUpdate =
        "UPDATE commands SET state = 'final', outcome = ?, reply = ?, late = ?, updated_ms = ? WHERE id = ?"
    static let lookup =
        """
        SELECT id, lane, action, fingerprint, client_transaction_id, state, outcome, reply, deadline_ms, created_ms
        FROM commands WHERE id = ?
        """

    /// `synchronous` as the bridge sets it, plus `off` for the baseline with no durability.
    enum Sync: String {
        case off = "OFF"
        case normal = "NORMAL"
        case full = "FULL"
    }

    /// Opens a fresh journal at `path` as the bridge opens its own: WAL, the given sync, no automatic
    /// checkpoint on this connection (a ``Checkpointer`` does them on its own thread), the schema.
    static func open(path: String, sync: Sync) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = \(sync.rawValue)")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.write { db in try db.execute(sql: create) }
        return queue
    }

    /// The bridge's `JournalCheckpointer`: a PASSIVE checkpoint every second from a connection and a thread of
    /// its own, so that the measured connection never checkpoints inside a commit.
    final class Checkpointer: Sendable {
        private let stopSignal = DispatchSemaphore(value: 0)
        private let finished = DispatchSemaphore(value: 0)

        init(path: String, intervalMs: Int = 1000) throws {
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            let database = try DatabaseQueue(path: path, configuration: configuration)
            let stopSignal = stopSignal
            let finished = finished
            let thread = Thread {
                defer { finished.signal() }
                while stopSignal.wait(timeout: .now() + .milliseconds(intervalMs)) == .timedOut {
                    try? database.writeWithoutTransaction { db in
                        try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)")
                    }
                }
            }
            thread.start()
        }

        func stop() {
            stopSignal.signal()
            finished.wait()
        }
    }
}
