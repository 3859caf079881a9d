import Foundation
import GRDB
import Testing

@testable import Bridge

/// The journal's indexes (issue 17): each index on a random key costs every write a page of WAL, so a sale
/// writes one (its id), and every look-up the bridge makes still goes along an index, never a scan.
@Suite("Journal indexes: one random-key index written per sale, every look-up indexed")
struct JournalIndexTests {
    private static func plan(_ sql: String, _ db: Database) throws -> String {
        // Any value for each parameter: the plan depends on which columns are compared, not on the values.
        let parameters = sql.filter { $0 == "?" }.count
        return try Row.fetchAll(
            db, sql: "EXPLAIN QUERY PLAN " + sql,
            arguments: StatementArguments(Array(repeating: "x", count: parameters))
        ).map { $0["detail"] as String }.joined(separator: "; ")
    }

    @Test("the journal's indexes are the lean set: no index by command on callbacks, late candidates only")
    func indexSet() throws {
        let journal = try TemporaryJournal("vivabridge-index")
        let names = try journal.journal.database.read { db in
            try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
        }
        #expect(
            names == [
                "commands_created", "commands_late_candidates", "commands_outstanding",
                "commands_pre_auths_by_order_code",
                "commands_unknown_sales",
            ])
    }

    @Test("a command that succeeds never enters the late-callback index; one that ends otherwise does")
    func successStaysOutOfLateIndex() throws {
        let journal = try TemporaryJournal("vivabridge-index")
        let entries = try journal.journal.database.write { db -> Int in
            for (id, outcome) in [("paid", "success"), ("declined", "failed"), ("lost", "unknown")] {
                try db.execute(
                    sql: """
                        INSERT INTO commands(id, lane, action, fingerprint, client_transaction_id, state, outcome,
                            created_ms, updated_ms) VALUES (?, 'ok', 'sale', '{}', ?, 'final', ?, 1, 1)
                        """, arguments: [id, id, outcome])
            }
            try db.execute(
                sql: """
                    INSERT INTO commands(id, lane, action, fingerprint, client_transaction_id, state, created_ms,
                        updated_ms) VALUES ('open', 'ok', 'sale', '{}', 'open', 'delivered', 1, 1)
                    """)
            // The index's own entries: ANALYZE counts them (the first number of its `sqlite_stat1` row).
            try db.execute(sql: "ANALYZE commands_late_candidates")
            let stat = try String.fetchOne(
                db, sql: "SELECT stat FROM sqlite_stat1 WHERE idx = 'commands_late_candidates'")
            return stat.flatMap { Int($0.split(separator: " ").first ?? "") } ?? -1
        }
        #expect(entries == 2)
        #expect(
            try journal.journal.lateCommand(lane: "ok", action: "sale", clientTransactionId: "declined", success: true)?
                .id == "declined")
        #expect(
            try journal.journal.lateCommand(lane: "ok", action: "sale", clientTransactionId: "lost", success: false)?.id
                == "lost")
        #expect(
            try journal.journal.lateCommand(lane: "ok", action: "sale", clientTransactionId: "paid", success: true)
                == nil)
        #expect(
            try journal.journal.lateCommand(lane: "ok", action: "sale", clientTransactionId: "declined", success: false)
                == nil)
    }

    @Test("every look-up the bridge makes goes along an index")
    func lookUpsIndexed() throws {
        let journal = try TemporaryJournal("vivabridge-index")
        let plans = try journal.journal.database.read { db in
            try [
                JournalSQL.lookup, JournalSQL.lateCommandForSuccess, JournalSQL.lateCommandForOther,
                JournalSQL.preAuthByOrderCode, JournalSQL.unknownCommandsOfAction,
            ].map { try Self.plan($0, db) }
        }
        for plan in plans {
            #expect(plan.contains("USING INDEX") || plan.contains("USING PRIMARY KEY"), "\(plan)")
            #expect(!plan.contains("SCAN commands"), "\(plan)")
        }
        #expect(plans[1].contains("commands_late_candidates"), "\(plans[1])")
    }
}
