import GRDB
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// The journal writer binds its values straight to SQLite (``Statement/run(_:)``): what it stores reads
/// back as GRDB would have stored it, and a statement that fails is reported and stays usable.
@Suite("Statement binder: the writer's values, bound without GRDB's boxing")
struct StatementBinderTests {
    private static func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, name TEXT, number INTEGER, flag INTEGER)")
        }
        return queue
    }

    @Test("text, empty text, NULL, integers and booleans read back as bound")
    func roundTrip() throws {
        let queue = try Self.database()
        try queue.write { db in
            let insert = try db.cachedStatement(sql: "INSERT INTO t(id, name, number, flag) VALUES (?, ?, ?, ?)")
            try insert.run {
                $0.text("a")
                $0.text("caf\u{E9} \u{1F4B3}")
                $0.integer(Int64.max)
                $0.boolean(true)
            }
            try insert.run {
                $0.text("b")
                $0.text("")
                $0.integer(-42 as Int?)
                $0.boolean(false)
            }
            try insert.run {
                $0.text("c")
                $0.text(nil)
                $0.integer(nil as Int64?)
                $0.boolean(false)
            }
        }
        let rows = try queue.read { db in try Row.fetchAll(db, sql: "SELECT id, name, number, flag FROM t ORDER BY id")
        }
        #expect(rows.count == 3)
        #expect(rows[0]["name"] as String? == "caf\u{E9} \u{1F4B3}")
        #expect(rows[0]["number"] as Int64? == Int64.max)
        #expect(rows[0]["flag"] as Bool? == true)
        // The empty string is text, not NULL: a nil pointer would have bound NULL.
        #expect(rows[1]["name"] as String? == "")
        #expect((rows[1]["name"] as DatabaseValue).isNull == false)
        #expect(rows[1]["number"] as Int? == -42)
        #expect(rows[1]["flag"] as Bool? == false)
        #expect((rows[2]["name"] as DatabaseValue).isNull)
        #expect((rows[2]["number"] as DatabaseValue).isNull)
    }

    @Test("text with a NUL character is stored as GRDB stores it, so that GRDB's look-ups find it")
    func nulAsGRDB() throws {
        let queue = try Self.database()
        let key = "order\u{0}code"
        try queue.write { db in
            try db.cachedStatement(sql: "INSERT INTO t(id, name) VALUES (?, ?)").run {
                $0.text("bound")
                $0.text(key)
            }
            try db.execute(sql: "INSERT INTO t(id, name) VALUES (?, ?)", arguments: ["grdb", key])
        }
        let found = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM t WHERE name = ? ORDER BY id", arguments: [key])
        }
        #expect(found == ["bound", "grdb"])
    }

    @Test("too few or too many values are refused before the statement runs")
    func wrongCount() throws {
        let queue = try Self.database()
        try queue.write { db in
            let insert = try db.cachedStatement(sql: "INSERT INTO t(id, name) VALUES (?, ?)")
            #expect(throws: DatabaseError.self) { try insert.run { $0.text("short") } }
            #expect(throws: DatabaseError.self) {
                try insert.run {
                    $0.text("long")
                    $0.text("x")
                    $0.text("y")
                }
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 0)
        }
    }

    @Test("a statement SQLite fails throws its error and runs again afterwards")
    func failureThenReuse() throws {
        let queue = try Self.database()
        try queue.write { db in
            let insert = try db.cachedStatement(sql: "INSERT INTO t(id, name) VALUES (?, ?)")
            try insert.run {
                $0.text("same")
                $0.text("first")
            }
            do {
                try insert.run {
                    $0.text("same")
                    $0.text("second")
                }
                Issue.record("a duplicate primary key was accepted")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_CONSTRAINT)
                #expect(error.message?.contains("UNIQUE") == true, "\(error)")
            }
            try insert.run {
                $0.text("other")
                $0.text("third")
            }
            #expect(try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY name") == ["first", "third"])
        }
    }
}
