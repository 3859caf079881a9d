import Bridge
import Foundation
import GRDB

/// The bridge journal's schema, statements and checkpointer (Sources/Bridge/Journal/JournalSQL.swift and
/// JournalCheckpointer.swift, shared with `package` access), and its connection set-up, so the benchmark
/// drives SQLite through GRDB as the bridge does.
enum JournalSchema {
    static let insertCommand = JournalSQL.appendCommand
    static let insertCallback = JournalSQL.appendCallback
    static let finalUpdate = JournalSQL.appendOutcome
    /// A command by its place in the log (the bridge finds an id's place from memory, ``CommandIndex``).
    static let lookup = JournalSQL.commandBySeq

    /// `synchronous` as the bridge sets it, plus `off` for the baseline with no durability.
    enum Sync: String {
        case off = "OFF"
        case normal = "NORMAL"
        case full = "FULL"
    }

    /// Opens a fresh journal at `path` as the bridge opens its own: WAL, the given sync, no automatic
    /// checkpoint on this connection (a ``Checkpointer`` does them on its own thread), the schema and
    /// indexes of every migration.
    static func open(path: String, sync: Sync) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = \(sync.rawValue)")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try JournalMigrations.migrate(queue)
        return queue
    }

    /// The bridge's own checkpointer, on a connection and a thread of its own.
    typealias Checkpointer = JournalCheckpointer
}
