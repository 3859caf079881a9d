import Foundation
import GRDB
import InterApp
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalPostgres
@testable import JournalSQLite

/// The journal's rows are typed records (issue 34): actions, outcomes, states and callback dispositions are
/// enums stored by their raw values, every column is read and bound by its name, and a row holding what
/// vivabridge never writes is refused with the column and value named.
@Suite("Journal: typed rows")
struct JournalRowsTests {
    private static func command(_ id: String, action: TerminalAction, seq: Int64? = nil) -> StoredCommand {
        StoredCommand(
            id: id, lane: "lane-1", action: action, fingerprint: #"{"amount":1200}"#, clientTransactionId: "c-\(id)",
            state: .accepted, outcome: nil, reply: nil, deadlineMs: 9, createdMs: 1, client: "pos7", seq: seq)
    }

    /// A summary whose every field holds a value of its own, so a value bound to another column shows.
    private static let summary = ReplySummary(
        amount: 4100, tip: 300, errorCode: "error-code", failureReason: "failure-reason",
        referenceNumber: "reference-number", orderCode: "order-code", card: "476173******0010", batch: "batch",
        resolvedAt: "resolved-at", resolvedBy: "resolved-by", resolvedNote: "resolved-note")

    private static func text(_ row: Row, _ column: String) -> String? { row[column] }
    private static func integer(_ row: Row, _ column: String) -> Int64? { row[column] }

    @Test("enums are stored by raw value and read back as the same cases")
    func rawValues() throws {
        let temporary = try TemporaryJournal("typed-rows")
        let journal = temporary.journal
        var ended = Self.command("p-1", action: .preAuth)
        ended.seq = journal.admit(id: ended.id)
        try journal.commit([.insert(ended)])
        ended.state = .final
        ended.outcome = .nothingToAbort
        ended.reply = #"{"outcome":"nothing_to_abort"}"#
        ended.deadlineMs = nil
        try journal.commit([
            .final(ended, summary: Self.summary, late: true, atMs: 5),
            .callback(
                lane: "lane-1", atMs: 4, fields: "{}", matchedId: ended.id, commandSeq: ended.seq,
                disposition: .matchedUnknownAction),
        ])
        let stored = try journal.database.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT c.action AS action, o.outcome AS outcome, k.disposition AS disposition
                    FROM command_log c, outcome_log o, callbacks k WHERE o.command_seq = c.seq AND k.command_seq = c.seq
                    """)
        }
        let row = try #require(stored)
        #expect(Self.text(row, "action") == "pre_auth" && Self.text(row, "outcome") == "nothing_to_abort")
        #expect(Self.text(row, "disposition") == "matched-unknown-action")
        let read = try #require(try journal.command(id: "p-1"))
        #expect(read.action == .preAuth && read.outcome == .nothingToAbort && read.state == .final)
        #expect(read.reply == ended.reply && read.client == "pos7" && read.seq == ended.seq)
    }

    @Test("an outcome's reply columns each hold their own field")
    func replyColumnsByName() throws {
        let temporary = try TemporaryJournal("typed-rows")
        let journal = temporary.journal
        var ended = Self.command("s-1", action: .sale)
        ended.seq = journal.admit(id: ended.id)
        try journal.commit([.insert(ended)])
        ended.outcome = .success
        ended.reply = "{}"
        try journal.commit([.final(ended, summary: Self.summary, late: false, atMs: 5)])
        let row = try #require(
            try journal.database.read { db in
                try Row.fetchOne(db, sql: "SELECT * FROM outcome_log WHERE command_seq = ?", arguments: [ended.seq])
            })
        #expect(Self.integer(row, "amount") == 4100 && Self.integer(row, "tip") == 300)
        for name in [
            "error_code", "failure_reason", "reference_number", "order_code", "batch", "resolved_at", "resolved_by",
            "resolved_note",
        ] {
            #expect(Self.text(row, name) == name.replacingOccurrences(of: "_", with: "-"), "column \(name)")
        }
        #expect(Self.text(row, "card") == "476173******0010")
        #expect(Self.integer(row, "at_ms") == 5 && Self.integer(row, "late") == 0)
        #expect(Self.text(row, "lane") == "lane-1" && Self.text(row, "client_transaction_id") == "c-s-1")
        #expect(Self.text(row, "outcome") == "success" && Self.text(row, "reply") == "{}")
    }

    @Test("a lane's batch is kept, replaced and removed")
    func batches() throws {
        let temporary = try TemporaryJournal("typed-rows")
        let journal = temporary.journal
        let first = OpenBatch(name: "day 1", id: "b-1", openedAtMs: 10)
        let second = OpenBatch(name: nil, id: nil, openedAtMs: 20, automatic: true)
        try journal.commit([.batch(lane: "lane-1", first), .batch(lane: "lane-2", first)])
        #expect(try journal.openBatches() == ["lane-1": first, "lane-2": first])
        try journal.commit([.batch(lane: "lane-1", second), .batch(lane: "lane-2", nil)])
        #expect(try journal.openBatches() == ["lane-1": second])
    }

    @Test("a row holding an action vivabridge never writes is refused, naming the column and the value")
    func unknownAction() throws {
        let temporary = try TemporaryJournal("typed-rows")
        let journal = temporary.journal
        let seq = journal.admit(id: "odd")
        try journal.database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO command_log(seq, id, lane, action, fingerprint, created_ms) VALUES (?, 'odd', 'lane-1',
                    'teleport', '{}', 1)
                    """, arguments: [seq])
        }
        #expect {
            try journal.command(id: "odd")
        } throws: { error in
            let refusal = error as? JournalRowError
            return refusal?.column == "action" && refusal?.value == "teleport"
                && refusal?.description.contains("restore the journal from a backup") == true
        }
        #expect(throws: JournalRowError.self) { try journal.outstanding() }
    }
}

@Suite("Journal: one home for the columns both stores write")
struct JournalColumnsTests {
    @Test("the columns the row types write are SQLite's tables' own, and PostgreSQL's statements list the same")
    func columnsMatchTheSchema() throws {
        let temporary = try TemporaryJournal("typed-rows")
        func columns(_ table: String) throws -> [String] {
            try temporary.journal.database.read { db in try db.columns(in: table).map(\.name) }
        }
        let written: [(table: String, names: [String], postgres: [String])] = [
            ("command_log", CommandLogRow.columns.map(\.name), PostgresJournalSQL.commandColumns.map(\.name)),
            ("outcome_log", OutcomeLogRow.columnNames, PostgresJournalSQL.outcomeColumns.map(\.name)),
            ("callbacks", CallbackRow.columns.map(\.name), PostgresJournalSQL.callbackColumns.map(\.name)),
            ("batches", BatchRow.columns.map(\.name), PostgresJournalSQL.batchColumns.map(\.name)),
        ]
        for (table, names, postgres) in written {
            // `seq` of `outcome_log` and `callbacks` is the store's own.
            let storeOwn: Set<String> = table == "command_log" ? [] : ["seq"]
            #expect(Set(try columns(table)).subtracting(storeOwn) == Set(names), "\(table)")
            #expect(postgres == names, "\(table)")
        }
        let view = try columns("commands")
        for column in StoredCommand.Columns.allCases { #expect(view.contains(column.name), "\(column.name)") }
    }
}
