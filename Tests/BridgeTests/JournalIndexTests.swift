import Foundation
import GRDB
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// The journal's indexes (issues 17 and 34): each index on a random key costs every write a page of WAL, so a
/// sale that succeeds writes none (its id is found from memory), and every look-up the bridge makes still goes
/// along an index or a sequence, never a scan.
@Suite("Journal indexes: no random-key index written for a sale that succeeds, every look-up indexed")
struct JournalIndexTests {
    private static func plan(_ sql: String, _ db: Database) throws -> String {
        // Any value for each parameter: the plan depends on which columns are compared, not on the values.
        let parameters = sql.filter { $0 == "?" }.count
        return try Row.fetchAll(
            db, sql: "EXPLAIN QUERY PLAN " + sql,
            arguments: StatementArguments(Array(repeating: "x", count: parameters))
        ).map { $0["detail"] as String }.joined(separator: "; ")
    }

    @Test("the journal's indexes are the lean set: rising keys, and partial indexes that a success never enters")
    func indexSet() throws {
        let journal = try TemporaryJournal("vivabridge-index")
        let names = try journal.journal.database.read { db in
            try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
        }
        #expect(
            names == [
                "command_log_created", "outcome_log_command", "outcome_log_late", "outcome_log_pre_auths",
                "outcome_log_unknown",
            ])
    }

    @Test("a command that succeeds never enters the late-callback index; one that ends otherwise does")
    func successStaysOutOfLateIndex() throws {
        let journal = try TemporaryJournal("vivabridge-index")
        let entries = try journal.journal.database.write { db -> Int in
            for (id, outcome) in [("paid", "success"), ("declined", "failure"), ("lost", "unknown")] {
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
            try db.execute(sql: "ANALYZE outcome_log_late")
            let stat = try String.fetchOne(db, sql: "SELECT stat FROM sqlite_stat1 WHERE idx = 'outcome_log_late'")
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
                JournalSQL.commandBySeq, JournalSQL.lateForSuccess, JournalSQL.lateForOther,
                JournalSQL.preAuthByOrderCodeInLog, JournalSQL.unknownOfAction, JournalSQL.unknownCount,
            ].map { try Self.plan($0, db) }
        }
        for plan in plans {
            // A scan of either log, row by row, would grow with the journal.
            for step in plan.split(separator: ";") where step.contains("SCAN") {
                #expect(step.contains("USING"), "\(plan)")
            }
        }
        #expect(plans[1].contains("outcome_log_late"), "\(plans[1])")
        #expect(plans[2].contains("outcome_log_unknown"), "\(plans[2])")
        #expect(plans[3].contains("outcome_log_pre_auths"), "\(plans[3])")
    }
}
