import Foundation
import Synchronization

/// One transaction in the simulated back office's ledger, as Viva's transaction APIs report it.
public struct CloudLedgerEntry: Sendable, Equatable {
    /// Viva's transaction id (a UUID).
    public var transactionId: String
    /// `F` (finished) or `E` (error: declined).
    public var statusId: String
    /// The amount in cents.
    public var amount: Int
    /// The merchant's reference: a relay lane's `clientTransactionId`.
    public var merchantTrns: String?
    /// The 16-digit order code.
    public var orderCode: String
    /// When it was recorded, in the merchant's local time with no offset (`2026-11-21T12:14:19.87`).
    public var insDate: String
    /// The terminal id (TID) of the terminal that made it.
    public var terminalId: String
    /// Viva's `TransactionTypeId`: 5 a payment, 1 a pre-authorisation, 0 a capture, 4 a refund.
    public var typeId: Int
    /// The masked card number, when a card was read.
    public var cardNumber: String?
    /// When it was written to the ledger (the simulator's clock); the back office may hide it for a while.
    public var recordedAt: Date
}

/// The simulated back office's one ledger of transactions, written by every simulated terminal (relay lanes
/// through ``Simulator``, cloud lanes directly) and read by ``CloudBackOffice``. Thread-safe.
///
/// Amounts ending in 51 are declined (`E`), as on the relay lanes (``OutcomeRule``).
public final class CloudLedger: Sendable {
    private let clock: any SimulatorClock
    private let dates: TransactionDateFormat
    private let state: Mutex<State>

    private struct State {
        var entries: [CloudLedgerEntry] = []
        var byId: [String: Int] = [:]
        var random: SplitMix64
    }

    /// Creates an empty ledger.
    ///
    /// - Parameters:
    ///   - clock: the wall clock of `insDate` (the simulator's, to agree with its transaction dates).
    ///   - seed: the seed of generated ids and order codes.
    ///   - utcOffsetMinutes: the merchant's offset from UTC, in which `insDate` is written.
    public init(clock: any SimulatorClock = SystemSimulatorClock(), seed: UInt64 = 1, utcOffsetMinutes: Int = 120) {
        self.clock = clock
        self.dates = TransactionDateFormat(offsetMinutes: utcOffsetMinutes)
        self.state = Mutex(State(random: SplitMix64(seed: seed, lane: "viva-cloud-ledger")))
    }

    /// Records a sale made through the cloud: `F`, or `E` for an amount the ``OutcomeRule`` declines or
    /// fails at the host; nil (nothing recorded) for one the cardholder cancels before a card is read.
    @discardableResult
    public func recordSale(amount: Int, merchantTrns: String?, terminalId: String) -> CloudLedgerEntry? {
        let status: String
        switch OutcomeRule.outcome(forAmount: amount) {
        case .approve, .approveUnanswered: status = "F"
        case .decline, .hostError: status = "E"
        case .cardholderCancel: return nil
        }
        return record(statusId: status, amount: amount, merchantTrns: merchantTrns, terminalId: terminalId)
    }

    /// Records a transaction with this status as it is, whatever the amount (a cloud session whose record
    /// disagrees with it, in the back office's faults).
    func record(
        statusId: String, amount: Int, merchantTrns: String?, terminalId: String, cardNumber: String? = nil,
        typeId: Int = 5
    ) -> CloudLedgerEntry {
        let now = clock.now()
        let insDate = Self.localDate(dates.string(from: now))
        return state.withLock { state in
            let entry = CloudLedgerEntry(
                transactionId: state.random.uuid(), statusId: statusId, amount: amount, merchantTrns: merchantTrns,
                orderCode: state.random.digits(16, leadingNonZero: true), insDate: insDate, terminalId: terminalId,
                typeId: typeId, cardNumber: cardNumber, recordedAt: now)
            Self.append(entry, to: &state)
            return entry
        }
    }

    /// Records a relay lane's sale or pre-authorisation that reached the host (approved: `F`; declined:
    /// `E`), with its `clientTransactionId` as `merchantTrns`; other transactions move no money at Viva.
    func recordRelayed(_ transaction: SimulatedTransaction, terminalId: String) {
        guard transaction.kind == .sale || transaction.kind == .preAuth,
            transaction.outcome == .approved || transaction.outcome == .declined,
            let orderCode = transaction.orderCode
        else { return }
        let now = clock.now()
        let insDate = Self.localDate(transaction.transactionDate ?? dates.string(from: now))
        state.withLock { state in
            let entry = CloudLedgerEntry(
                transactionId: transaction.transactionId ?? state.random.uuid(),
                statusId: transaction.outcome == .approved ? "F" : "E", amount: transaction.amount,
                merchantTrns: transaction.clientTransactionId, orderCode: orderCode, insDate: insDate,
                terminalId: terminalId, typeId: transaction.kind == .preAuth ? 1 : 5,
                cardNumber: transaction.accountNumber,
                recordedAt: now)
            Self.append(entry, to: &state)
        }
    }

    /// Every entry, oldest first.
    public var entries: [CloudLedgerEntry] { state.withLock { $0.entries } }

    /// The entries whose `insDate` falls on `day` (`YYYY-MM-DD`, local), oldest first.
    public func entries(onDay day: String) -> [CloudLedgerEntry] {
        state.withLock { state in state.entries.filter { $0.insDate.hasPrefix(day + "T") } }
    }

    /// The entry with this transaction id.
    public func entry(transactionId: String) -> CloudLedgerEntry? {
        state.withLock { state in state.byId[transactionId].map { state.entries[$0] } }
    }

    private static func append(_ entry: CloudLedgerEntry, to state: inout State) {
        state.byId[entry.transactionId] = state.entries.count
        state.entries.append(entry)
    }

    /// `2026-11-21T12:14:19.8703452+02:00` → `2026-11-21T12:14:19.87`: Viva's `InsDate`, local with no offset.
    static func localDate(_ date: String) -> String {
        String(date.prefix(22))
    }
}
