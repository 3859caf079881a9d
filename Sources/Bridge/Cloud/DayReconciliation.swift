import BridgeCore
import BridgeJournal
import InterApp
import VivaCloud

/// One day of the journal's money commands against Viva's records (`vivabridge journal reconcile`): a
/// value, worked out by ``compare(day:journal:viva:)`` with no I/O.
///
/// The journal's sales and pre-authorisations created on the UTC `day` that reached a terminal (ended
/// `success`, `failure`, `aborted` or `unknown`) are matched on `clientTransactionId` = Viva's `MerchantTrns`
/// with Viva's transactions of the day and the days either side (Viva dates them in the merchant's local
/// time). Viva's transactions of the day itself that match no command of the journal are listed too.
public struct DayReconciliation: Sendable, Equatable {
    /// What one line found.
    public enum Kind: String, Sendable, CaseIterable {
        /// The journal and Viva agree.
        case matched
        /// The journal has it (a success, or an unknown) and Viva has no record of it.
        case missingAtViva = "missing_at_viva"
        /// Viva has it and the journal does not (a sale made on the terminal by hand, or by another till).
        case missingInJournal = "missing_in_journal"
        /// Viva's status says otherwise (a `failure` Viva shows `F`: the customer may pay twice).
        case outcomeDiffers = "outcome_differs"
        /// Both say it succeeded, for different amounts.
        case amountDiffers = "amount_differs"
    }

    /// One command, one Viva transaction, or both.
    public struct Line: Sendable, Equatable {
        public var kind: Kind
        /// The journal's command, when it has one.
        public var command: ExportedCommand?
        /// Viva's transaction, when it has one.
        public var transaction: DayTransaction?
    }

    /// The UTC day compared (`YYYY-MM-DD`).
    public var day: String
    /// Every line: the journal's commands in their order, then Viva's transactions the journal lacks.
    public var lines: [Line]

    /// How many lines agree.
    public var matched: Int { lines.count { $0.kind == .matched } }
    /// The lines that do not.
    public var differences: [Line] { lines.filter { $0.kind != .matched } }

    /// The actions compared: the money Viva records with the bridge's `clientTransactionId`.
    public static let actions: Set<String> = [TerminalAction.sale.rawValue, TerminalAction.preAuth.rawValue]
    /// The outcomes of commands that reached a terminal (a rejected or undeliverable one never did).
    static let reachedTerminal: Set<String> = ["success", "failure", "aborted", "unknown"]

    /// Viva's days to list for the UTC day starting at `dayStartMs`: it and the days either side.
    public static func vivaDays(around dayStartMs: Int64) -> [String] { VivaLookups.days(aroundMs: dayStartMs) }

    /// Compares the journal's commands (`journal`: those of `day` and the days either side, so that a
    /// transaction Viva dates on `day` in local time finds its command) with Viva's transactions (`viva`:
    /// the lists of `day` and the days either side).
    public static func compare(day: String, journal: [ExportedCommand], viva: [DayTransaction]) -> DayReconciliation {
        var seen: Set<String> = []
        let transactions = viva.filter { seen.insert($0.transactionId).inserted }
        var byReference: [String: [DayTransaction]] = [:]
        for transaction in transactions {
            if let reference = transaction.merchantTrns, !reference.isEmpty {
                byReference[reference, default: []].append(transaction)
            }
        }
        let money = journal.filter { actions.contains($0.action) }
        var lines: [Line] = []
        for command in money
        where String(Timestamp.iso8601(ms: command.createdMs).prefix(10)) == day
            && reachedTerminal.contains(command.outcome ?? "")
        {
            let matches = command.clientTransactionId.flatMap { byReference[$0] } ?? []
            let transaction = matches.first { $0.statusId == .finished } ?? matches.first
            lines.append(Line(kind: kind(command, transaction), command: command, transaction: transaction))
        }
        // Any command's reference is known: a cloud lane's capture or refund is recorded under its id.
        let known = Set(journal.flatMap { [$0.id] + ($0.clientTransactionId.map { [$0] } ?? []) })
        for transaction in transactions where transaction.insDate?.hasPrefix(day) == true {
            if let reference = transaction.merchantTrns, known.contains(reference) { continue }
            lines.append(Line(kind: .missingInJournal, command: nil, transaction: transaction))
        }
        return DayReconciliation(day: day, lines: lines)
    }

    /// How `command` compares with Viva's `transaction` (nil: none carries its id).
    private static func kind(_ command: ExportedCommand, _ transaction: DayTransaction?) -> Kind {
        let outcome = command.outcome ?? ""
        guard let transaction else {
            // A failure or an abort may never reach Viva (cancelled before a card was read).
            return outcome == "success" || outcome == "unknown" ? .missingAtViva : .matched
        }
        let finished = transaction.statusId == .finished
        switch outcome {
        case "success":
            guard finished else { return .outcomeDiffers }
            return command.amount == transaction.amountCents ? .matched : .amountDiffers
        case "unknown":
            return .outcomeDiffers
        default:
            return finished ? .outcomeDiffers : .matched
        }
    }
}
