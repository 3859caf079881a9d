import Foundation
import GRDB
import InterApp
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite
@testable import JournalTools

/// `vivabridge journal export` and `journal backup` as processes, beside a bridge that a client keeps busy
/// with sales in a closed loop (issue 16): each export is a consistent snapshot, each backup holds every
/// command answered before it started.
@Suite("Journal export and backup during a closed-loop load")
struct JournalUnderLoadTests {
    /// How many sales are answered between two exports.
    private static let salesBetween = 80

    @Test("every export taken during the load is a consistent snapshot, and each holds all the one before held")
    func exportDuringLoad() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane()])
        let journal = bridge.folder.appendingPathComponent("journal.sqlite").path
        let load = ClosedLoopSales(endpoint: bridge.bound.command, lane: "lane-1")
        var exports: [(via: String, rows: [ExportedRow], answeredBefore: Set<String>)] = []
        var answeredDuringExports = 0
        for round in 1...4 {
            #expect(load.waitForReplies(round * Self.salesBetween), "the load stalled: \(load.failure ?? "")")
            let format = round % 2 == 1 ? "jsonl" : "csv"
            let answeredBefore = Set(load.received.keys)
            let child = try ChildProcess(["journal", "export", "--journal", journal, "--format", format])
            #expect(child.waitForExit(timeout: 30) == 0, "\(child.errorOutput)")
            answeredDuringExports += load.received.count - answeredBefore.count
            exports.append(
                ("the command (\(format)), round \(round)", Self.rows(child.output, format: format), answeredBefore))
            // The export API the command uses, a few rows a read transaction: many snapshots in one export.
            let answeredBeforePaged = Set(load.received.keys)
            var paged: [ExportedRow] = []
            _ = try JournalExport.forEachFinished(path: journal, fromMs: nil, toMs: nil, rowsPerRead: 7) {
                paged.append(ExportedRow($0))
            }
            exports.append(("the API by 7 rows, round \(round)", paged, answeredBeforePaged))
        }
        let answered = load.stop()
        #expect(load.failure == nil, "\(load.failure ?? "")")
        #expect(answered.count >= 4 * Self.salesBetween)
        #expect(
            answered.values.contains { $0.outcome == "failure" } && answered.values.contains { $0.outcome == "success" }
        )

        var previous: Set<String> = []
        for (via, rows, answeredBefore) in exports {
            let ids = rows.map(\.id)
            #expect(answeredBefore.isSubset(of: Set(ids)), "\(via) lacks commands answered before it began")
            #expect(Set(ids).count == ids.count, "\(via): an id exported twice")
            // One client, one sale at a time: a snapshot holds exactly the first N sales, with no gap.
            #expect(
                Set(ids) == Set((0..<ids.count).map(ClosedLoopSales.id)),
                "\(via): not a prefix of the sales: \(ids.sorted().prefix(20))…")
            for row in rows {
                guard let answer = answered[row.id] else {
                    Issue.record("\(via): \(row.id) exported, but no reply to it arrived")
                    continue
                }
                #expect(row.outcome == answer.outcome, "\(via): \(row.id) exported \(row.outcome ?? "-")")
                #expect(row.amount == answer.amount, "\(via): \(row.id)")
                #expect(row.lane == answer.lane && row.action == answer.action, "\(via): \(row.id)")
            }
            #expect(previous.isSubset(of: Set(ids)), "\(via) lost ids an earlier export held")
            previous = Set(ids)
        }
        #expect(answeredDuringExports > 0, "no sale was answered while an export ran")
    }

    /// The rows of an export's output; an expectation fails for any row that does not parse.
    private static func rows(_ output: String, format: String) -> [ExportedRow] {
        var rows: [ExportedRow] = []
        if format == "jsonl" {
            for line in output.split(separator: "\n") {
                let row = ExportedRow(jsonLine: String(line))
                #expect(row != nil, "an exported line does not parse: \(line)")
                if let row { rows.append(row) }
            }
            return rows
        }
        let records = csvRecords(output)
        #expect(records.first == ExportedCommand.fieldNames, "the CSV header: \(records.first ?? [])")
        for record in records.dropFirst() {
            #expect(record.count == ExportedCommand.fieldNames.count, "a CSV row of \(record.count) fields: \(record)")
            let fields = Dictionary(uniqueKeysWithValues: zip(ExportedCommand.fieldNames, record))
            let row = ExportedRow(csv: fields)
            #expect(row != nil, "a CSV row does not parse: \(record)")
            if let row { rows.append(row) }
        }
        return rows
    }

    /// RFC 4180 records: fields split at commas, quoted fields with doubled quotes, CRLF line ends.
    private static func csvRecords(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" {
                        field.append("\"")
                        characters.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"": quoted = true
            case ",":
                record.append(field)
                field = ""
            case "\r\n", "\n":
                record.append(field)
                records.append(record)
                record = []
                field = ""
            default: field.append(character)
            }
        }
        if !field.isEmpty || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        return records
    }

    @Test("a backup taken during the load opens, is intact, and holds every command answered before it began")
    func backupDuringLoad() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane()])
        let journal = bridge.folder.appendingPathComponent("journal.sqlite").path
        let copy = bridge.folder.appendingPathComponent("backup.sqlite").path
        let load = ClosedLoopSales(endpoint: bridge.bound.command, lane: "lane-1")
        #expect(load.waitForReplies(150), "the load stalled: \(load.failure ?? "")")
        let before = load.received
        let backup = try ChildProcess(["journal", "backup", "--journal", journal, "--to", copy])
        #expect(backup.waitForExit(timeout: 30) == 0, "\(backup.errorOutput)")
        let during = load.received.count
        // The sales go on after the backup, on the journal it copied.
        #expect(load.waitForReplies(during + 50), "the load stalled: \(load.failure ?? "")")
        let answered = load.stop()
        #expect(load.failure == nil, "\(load.failure ?? "")")

        var readOnly = Configuration()
        readOnly.readonly = true
        let database = try DatabaseQueue(path: copy, configuration: readOnly)
        defer { try? database.close() }
        let integrity = try database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        #expect(integrity == ["ok"])
        let rows = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, state, outcome, amount FROM commands")
        }
        var stored: [String: (state: String, outcome: String?, amount: Int?)] = [:]
        for row in rows { stored[row["id"]] = (row["state"], row["outcome"], row["amount"]) }
        #expect(backup.output.contains("(\(rows.count) commands)"), "\(backup.output)")
        for (id, answer) in before {
            guard let command = stored[id] else {
                Issue.record("\(id) was answered before the backup began, and is not in it")
                continue
            }
            #expect(command.state == "final" && command.outcome == answer.outcome, "\(id): \(command)")
            #expect(command.amount == answer.amount, "\(id)")
        }
        // Nothing in the copy contradicts a reply, and it is one moment of the journal: the first N sales
        // finished, at most the next one still in flight.
        let finished = stored.filter { $0.value.state == "final" }
        for (id, command) in finished { #expect(command.outcome == answered[id]?.outcome, "\(id)") }
        #expect(Set(finished.keys) == Set((0..<finished.count).map(ClosedLoopSales.id)))
        #expect(stored.count - finished.count <= 1)
        #expect(stored.count < answered.count, "the copy holds sales answered after the backup")
        let check = try ChildProcess(["journal", "check", "--journal", copy])
        #expect(check.waitForExit(timeout: 30) == 0, "\(check.output)")
    }
}

/// One exported command, as the fields a reconciliation compares.
struct ExportedRow: Equatable {
    var id: String
    var lane: String?
    var action: String?
    var outcome: String?
    var amount: Int?

    /// A line of `journal export --format jsonl`; nil when it does not parse or has no id.
    init?(jsonLine: String) {
        guard let object = try? JSONValue.parse(jsonLine).objectValue, let id = object["id"]?.stringValue else {
            return nil
        }
        self.id = id
        lane = object["lane"]?.stringValue
        action = object["action"]?.stringValue
        outcome = object["outcome"]?.stringValue
        amount = object["amount"]?.intValue
    }

    /// A CSV row by its header's names (an empty field is absent); nil without an id or with an amount
    /// that is not a number.
    init?(csv fields: [String: String]) {
        func value(_ name: String) -> String? { fields[name].flatMap { $0.isEmpty ? nil : $0 } }
        guard let id = value("id") else { return nil }
        self.id = id
        lane = value("lane")
        action = value("action")
        outcome = value("outcome")
        if let text = value("amount") {
            guard let number = Int(text) else { return nil }
            amount = number
        } else {
            amount = nil
        }
    }

    init(_ command: ExportedCommand) {
        id = command.id
        lane = command.lane
        action = command.action
        outcome = command.outcome
        amount = command.amount
    }
}
