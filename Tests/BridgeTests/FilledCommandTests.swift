import Foundation
import InterApp
import Testing
import VivaCloud

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// The commands a restored journal is filled with from Viva's records (docs/JOURNAL.md, Backup and restore):
/// which transactions become commands, with what outcome, and which repeats they answer.
@Suite("Commands filled from Viva's records")
struct FilledCommandTests {
    private static func viva(
        _ reference: String?, status: String = "F", euros: Decimal = 12, type: TransactionType? = nil
    ) -> DayTransaction {
        DayTransaction(
            transactionId: UUID().uuidString, statusId: TransactionStatus(rawValue: status), amount: euros,
            merchantTrns: reference, orderCode: "1234567890123456", insDate: "2026-12-06T12:00:00.00",
            sourceTerminalId: "16016684", transactionTypeId: type)
    }

    private static func sale(_ amount: Int, tip: Int? = nil, action: TerminalAction = .sale) -> TerminalCommand {
        var parameters = [Parameter("amount", String(amount))]
        if let tip { parameters.append(Parameter("tipAmount", String(tip))) }
        parameters.append(Parameter("clientTransactionId", "r1"))
        return TerminalCommand(lane: "lane-1", action: action, parameters: parameters)
    }

    @Test("one command a reference the journal lacks: F before E before another status, no reference skipped")
    func missing() {
        let declined = Self.viva("r1", status: "E")
        let approved = Self.viva("r1")
        let pending = Self.viva("r2", status: "A")
        let chosen = FilledCommand.missing(
            [declined, Self.viva(nil), approved, pending, Self.viva("known"), Self.viva("")], known: ["known"])
        #expect(chosen == [approved, pending])
        #expect(FilledCommand.missing([declined, Self.viva("r1", status: "X")], known: []) == [declined])
    }

    @Test("a refund, void or capture Viva lists under a reference is never filled as a sale; payments and untyped are")
    func onlyPayments() {
        let payments = [Self.viva("p1", type: .charge), Self.viva("p2", type: .preauth), Self.viva("p3")]
        let others = [Self.viva("r1", type: .refund), Self.viva("v1", type: .void), Self.viva("c1", type: .capture)]
        #expect(FilledCommand.missing(payments + others, known: []) == payments)
    }

    @Test("F is a success resolved by Viva, E a failure, another status unknown with nothing resolved")
    func outcomes() throws {
        let (success, summary) = try #require(FilledCommand.make(Self.viva("r1"), seq: 7, atMs: 1_000))
        #expect(success.id == "r1" && success.clientTransactionId == "r1" && success.seq == 7)
        #expect(success.outcome == .success && success.state == .final && FilledCommand.isFilled(success))
        #expect(success.replyObject?["resolved"]?.objectValue?["by"]?.stringValue == "viva")
        #expect(summary.amount == 1200 && summary.resolvedBy == "viva")
        let failure = try #require(FilledCommand.make(Self.viva("r2", status: "E"), seq: 8, atMs: 1_000)).0
        #expect(failure.outcome == .failure && failure.replyObject?["reason"]?.stringValue == "other")
        let unknown = try #require(FilledCommand.make(Self.viva("r3", status: "A"), seq: 9, atMs: 1_000)).0
        #expect(unknown.outcome == .unknown && unknown.replyObject?["resolved"] == nil)
        #expect(FilledCommand.make(Self.viva(nil), seq: 10, atMs: 1_000) == nil)
    }

    @Test("a repeat is answered for the amount Viva recorded (with or without its tip), not for another or a refund")
    func answers() throws {
        let stored = try #require(FilledCommand.make(Self.viva("r1", euros: 12), seq: 1, atMs: 1_000)).0
        #expect(FilledCommand.answers(Self.sale(1200), stored))
        #expect(FilledCommand.answers(Self.sale(1100, tip: 100), stored))
        #expect(FilledCommand.answers(Self.sale(1200, action: .preAuth), stored))
        #expect(!FilledCommand.answers(Self.sale(1300), stored))
        #expect(!FilledCommand.answers(Self.sale(1200, action: .unreferencedRefund), stored))
        var ordinary = stored
        ordinary.fingerprint = #"{"action":"sale","amount":1200,"id":"r1"}"#
        #expect(!FilledCommand.answers(Self.sale(1200), ordinary))
    }

    @Test("the days a fill lists: the day before the newest command through the day after now")
    func days() {
        // 2026-12-06T10:00:00Z and two days later.
        let morning: Int64 = 1_796_551_200_000
        #expect(
            JournalGap.vivaDays(fromMs: morning, toMs: morning + 2 * 86_400_000)
                == ["2026-12-05", "2026-12-06", "2026-12-07", "2026-12-08", "2026-12-09"])
    }
}
