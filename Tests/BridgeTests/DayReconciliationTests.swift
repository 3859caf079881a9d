import Foundation
import InterApp
import Testing
import VivaCloud

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// `journal reconcile`'s comparison (docs/CLOUD.md): one test for each kind of line.
@Suite("A day of the journal against Viva's records")
struct DayReconciliationTests {
    /// 2026-12-06T10:00:00Z.
    private static let morning: Int64 = 1_796_551_200_000
    private static let day = "2026-12-06"

    private static func command(
        _ id: String, action: String = "sale", amount: Int = 1200, outcome: String, ctid: String? = nil,
        createdMs: Int64 = morning
    ) -> ExportedCommand {
        var command = ExportedCommand(
            id: id, lane: "lane-1", action: action, fingerprint: #"{"amount":\#(amount)}"#, outcome: outcome,
            reply: #"{"outcome":"\#(outcome)"}"#, createdMs: createdMs, updatedMs: createdMs)
        command.clientTransactionId = ctid ?? "ctid-\(id)"
        return command
    }

    private static func viva(
        _ reference: String?, status: String = "F", euros: Decimal = 12, insDate: String = "2026-12-06T12:00:00.00",
        id: String = UUID().uuidString
    ) -> DayTransaction {
        DayTransaction(
            transactionId: id, statusId: TransactionStatus(rawValue: status), amount: euros, merchantTrns: reference,
            orderCode: "1234567890123456", insDate: insDate, sourceTerminalId: "16016684")
    }

    private static func kinds(_ journal: [ExportedCommand], _ viva: [DayTransaction]) -> [DayReconciliation.Kind] {
        DayReconciliation.compare(day: day, journal: journal, viva: viva).lines.map(\.kind)
    }

    @Test("a success Viva shows F for the same amount, and a failure Viva shows E or never saw, match")
    func matched() {
        let report = DayReconciliation.compare(
            day: Self.day,
            journal: [
                Self.command("a", outcome: "success"), Self.command("b", outcome: "failure"),
                Self.command("c", outcome: "failure"),
            ],
            viva: [Self.viva("ctid-a"), Self.viva("ctid-b", status: "E")])
        #expect(report.lines.map(\.kind) == [.matched, .matched, .matched])
        #expect(report.differences.isEmpty)
        #expect(report.text.contains("3 matched, 0 differences"))
        #expect(report.json["differences"] == .number(JSONNumber(0)))
    }

    @Test("a success (or an unknown) Viva has no record of is missing at Viva")
    func missingAtViva() {
        #expect(
            Self.kinds([Self.command("a", outcome: "success"), Self.command("u", outcome: "unknown")], [])
                == [.missingAtViva, .missingAtViva])
    }

    @Test("a transaction of the day no command carries is missing in the journal; one of the next day is not listed")
    func missingInJournal() {
        let report = DayReconciliation.compare(
            day: Self.day, journal: [],
            viva: [Self.viva("by-hand"), Self.viva(nil), Self.viva("tomorrow", insDate: "2026-12-07T00:30:00.00")])
        #expect(report.lines.map(\.kind) == [.missingInJournal, .missingInJournal])
        #expect(report.text.contains("Missing in the journal"))
    }

    @Test(
        "a transaction recorded under any command's id (a cloud lane's refund or capture) is not missing in the journal"
    )
    func knownByAnyCommand() {
        var refund = Self.command("r1", action: "cancel", outcome: "success")
        refund.clientTransactionId = nil
        #expect(Self.kinds([refund], [Self.viva("r1"), Self.viva("by-hand")]) == [.missingInJournal])
    }

    @Test("a failure Viva shows F, and an unknown Viva shows either way, differ in outcome")
    func outcomeDiffers() {
        #expect(
            Self.kinds(
                [
                    Self.command("f", outcome: "failure"), Self.command("u", outcome: "unknown"),
                    Self.command("s", outcome: "success"),
                ],
                [Self.viva("ctid-f"), Self.viva("ctid-u", status: "E"), Self.viva("ctid-s", status: "X")])
                == [.outcomeDiffers, .outcomeDiffers, .outcomeDiffers])
    }

    @Test("a success Viva shows F for another amount differs in amount")
    func amountDiffers() {
        let report = DayReconciliation.compare(
            day: Self.day, journal: [Self.command("a", amount: 1200, outcome: "success")],
            viva: [Self.viva("ctid-a", euros: 10)])
        #expect(report.lines.map(\.kind) == [.amountDiffers])
        guard case .array(let lines)? = report.json["lines"], case .object(let line)? = lines.first else {
            Issue.record("no lines in \(report.json)")
            return
        }
        #expect(line["kind"] == .string("amount_differs"))
        #expect(line["bridge"]?.objectValue?["amount"] == .number(JSONNumber(1200)))
        #expect(line["viva"]?.objectValue?["amount"] == .number(JSONNumber(1000)))
    }

    @Test(
        "only the day's money commands that reached a terminal are compared; a command of the day before still claims its transaction"
    )
    func scope() {
        let yesterday = Self.morning - 86_400_000
        let report = DayReconciliation.compare(
            day: Self.day,
            journal: [
                Self.command("r", outcome: "rejected"), Self.command("b", action: "batch", outcome: "success"),
                Self.command("late", outcome: "success", createdMs: yesterday),
            ],
            viva: [Self.viva("ctid-late", insDate: "2026-12-06T00:30:00.00")])
        #expect(report.lines.isEmpty, "\(report.lines)")
    }
}
