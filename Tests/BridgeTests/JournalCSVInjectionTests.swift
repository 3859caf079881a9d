import Foundation
import InterApp
import TerminalSimulator
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite
@testable import JournalTools

/// `journal export --format csv` never hands a spreadsheet a formula (OWASP, "CSV Injection"): a text
/// cell starting with `=`, `+`, `-`, `@`, a tab or CR is prefixed with `'`; numbers stay as they are.
@Suite("Journal export: no formula reaches a spreadsheet")
struct JournalCSVInjectionTests {
    @Test(
        "a text cell that starts like a formula is prefixed with '",
        arguments: [
            ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"), ("+1+2", "'+1+2"), ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"), ("\r=1", "'\r=1"), ("a=1", "a=1"), ("'=1", "'=1"),
            ("1-2", "1-2"), ("", ""),
        ])
    func inert(text: String, cell: String) {
        #expect(JournalExportFormat.inert(text) == cell)
    }

    @Test("order code, reason, reference, card, batch and lane are neutralised; amounts, tips and times are not")
    func everyTextColumn() throws {
        let row = ExportedCommand(
            id: "pos-1", lane: "-lane", action: "sale", fingerprint: #"{"amount":-5,"tipAmount":-1}"#,
            outcome: "failure",
            reply: #"""
                {"outcome":"failure","reason":"@SUM(1+1)","client":"=cmd|' /C calc'!A0","result":{
                "orderCode":"=1+2","referenceNumber":"+123","accountNumber":"-476173******0010","batchId":"\t7"}}
                """#,
            createdMs: 0, updatedMs: 1500)
        let fields = JournalExportFormat.csv.line(row).dropLast(2).split(
            separator: ",", omittingEmptySubsequences: false)
        let cells = Dictionary(uniqueKeysWithValues: zip(ExportedCommand.fieldNames, fields.map(String.init)))
        #expect(cells["client"] == "'=cmd|' /C calc'!A0")
        #expect(cells["lane"] == "'-lane")
        #expect(cells["failureReason"] == "'@SUM(1+1)")
        #expect(cells["orderCode"] == "'=1+2")
        #expect(cells["referenceNumber"] == "'+123")
        #expect(cells["card"] == "'-476173******0010")
        #expect(cells["batch"] == "'\t7")
        #expect(cells["amount"] == "-5" && cells["tip"] == "-1", "a number was changed")
        #expect(cells["created"] == "1970-01-01T00:00:00.000+00:00")
        // JSON Lines carry the values as they are: JSON is not read as formulas.
        let json = try #require(try JSONValue.parse(JournalExportFormat.jsonl.line(row)).objectValue)
        #expect(json.string("orderCode") == "=1+2" && json.string("failureReason") == "@SUM(1+1)")
    }

    @Test("a command whose id starts with = is exported as text, through a real bridge's journal")
    func commandIdFromTheBridge() throws {
        var behaviour = LaneBehaviour()
        behaviour.cardPresentment = .milliseconds(0)
        behaviour.host = .milliseconds(0)
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "ok", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)
        ])
        let id = #"=HYPERLINK(\"http://evil\",\"x\")"#  // as JSON text; the id is =HYPERLINK("http://evil","x")
        let reply = try harness.call(saleJSON(id: id, lane: "ok", amount: 1200))
        #expect(reply.string("outcome") == "success")
        _ = try harness.call(saleJSON(id: "-1", lane: "ok", amount: 1251))
        var lines: [String] = []
        _ = try JournalExport.forEachFinished(path: harness.configuration.journal) {
            lines.append(JournalExportFormat.csv.line($0))
        }
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix(#""'=HYPERLINK(""http://evil"",""x"")",,ok,sale,1200,"#), "\(lines[0])")
        #expect(lines[1].hasPrefix("'-1,,ok,sale,1251,") && lines[1].contains(",failure,,declined,"), "\(lines[1])")
    }
}
