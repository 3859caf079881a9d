import Foundation
import Logging

/// The simulated Viva Terminal app of one lane: it reads request URLs, runs transactions through their
/// phases, keeps a history and batches, and produces callback URLs in its platform's dialect.
///
/// Pure logic with no sockets and no timers of its own: every outside action is a ``TerminalEffect``
/// collected in ``effects``, which the owner (the simulator's loop) drains after each call. One owner, one
/// thread.
final class TerminalApp {
    let lane: String
    let platform: SimulatorPlatform
    let dialect: Dialect
    var behaviour: LaneBehaviour
    /// The terminal id (TID) this app reports.
    let terminalId: String
    /// Effects produced since the owner last drained them.
    var effects: [TerminalEffect] = []

    var random: SplitMix64
    let clock: any SimulatorClock
    let dates: TransactionDateFormat
    let logger: Logger
    var stan: Int
    var book: TransactionBook
    var batches = BatchBook()
    /// The totals of each kept batch, by its id lowercased: what a report (iOS `getReport`) answers.
    var tallies: [String: BatchTally] = [:]
    var current: Activity?
    private var nextToken: UInt64 = 0

    /// The transaction in flight.
    struct Activity {
        enum Work {
            case sale(SaleRequest, outcome: ScriptedOutcome)
            case cancel(CancelWork)
        }
        var work: Work
        /// The request's `callback` value.
        var callback: String
        var phase: TransactionPhase = .cardPresentment
        var token: UInt64 = 0
        var waitingForRelease = false
        var card: CardProfile?
        var verificationMethod: String?
        /// How many screens the request asked for before the app returns (see ``ScreenRequest``).
        var screens = 0
        /// The callback held while those screens show.
        var pendingCallback: String?
    }

    /// A cancel in flight: the amount asked and, once known, the sale it reverses.
    struct CancelWork {
        var amount: Int?
        var target: Int?
        /// The `referenceNumber`, `orderCode` and `shortOrderCode` asked for, looked up once the card
        /// is presented.
        var reference: String?
        var orderCode: String?
        var shortOrderCode: String?
    }

    init(
        lane: String, platform: SimulatorPlatform, behaviour: LaneBehaviour, seed: UInt64,
        clock: any SimulatorClock, dates: TransactionDateFormat, historyLimit: Int, logger: Logger
    ) {
        self.lane = lane
        self.platform = platform
        self.dialect = Dialect(platform: platform)
        self.behaviour = behaviour
        self.clock = clock
        self.dates = dates
        self.logger = logger
        var random = SplitMix64(seed: seed, lane: lane)
        self.terminalId = random.digits(8, leadingNonZero: true)
        self.stan = 1 + random.below(899_999)
        self.random = random
        self.book = TransactionBook(limit: historyLimit, indexed: true)
    }

    /// The phase the app is in.
    var phase: TransactionPhase { current?.phase ?? .idle }

    // MARK: - Requests

    /// Handles a request URL the relay opened (already known to be `vivapayclient://pay/v1`).
    func handle(_ request: RequestURL) {
        guard let callback = request.value("callback"), !callback.isEmpty else {
            logger.warning("request without a callback: the app cannot answer", metadata: ["lane": "\(lane)"])
            return
        }
        let action = request.value("action") ?? ""
        if let failure = RequestValidation.checkCommon(request) {
            fail(callback: callback, action: action, message: .invalid(failure.reason))
            return
        }
        if action == "abort" {
            abort(callback: callback)
            return
        }
        if action == "foreground" {
            // Viva's pages: the app comes to the front and sends no answer, busy or not.
            effects.append(.foregrounded)
            return
        }
        if current != nil {
            fail(callback: callback, action: action, message: .busy)
            return
        }
        switch action {
        case "sale": startSale(request, callback: callback)
        case "pre_auth": startSale(request, callback: callback, kind: .preAuth)
        case "capture_pre_auth": capture(request, callback: callback)
        case "unreferenced_refund": startSale(request, callback: callback, kind: .unreferencedRefund)
        case "send_money_fast_refund" where platform == .android:
            fastRefund(request, callback: callback)
        case "cancel": startCancel(request, callback: callback)
        case "batch": batch(request, callback: callback)
        case "transactionDetails" where platform == .android: transactionDetails(request, callback: callback)
        case "reprintTransaction" where platform == .ios: reprint(request, callback: callback, action: action)
        case "print" where platform == .android: reprint(request, callback: callback, action: action)
        case "getReport" where platform == .ios: report(request, callback: callback)
        default: fail(callback: callback, action: action, message: .unsupportedAction)
        }
    }

    /// Answers a request refused before it started: `status`, `message`, `action`.
    func fail(callback: String, action: String, message: Dialect.Message) {
        var url = builder(callback)
        url.add("status", dialect.failed)
        url.add("message", dialect.text(message))
        url.add("action", action)
        emit(url.url)
    }

    // MARK: - Phases

    /// Starts `work` in `phase`.
    func begin(_ work: Activity.Work, callback: String, screens: Int = 0, in phase: TransactionPhase) {
        current = Activity(work: work, callback: callback, screens: screens)
        enter(phase)
    }

    /// Ends the transaction with `callback`: at once, or after the screens the request asked for.
    /// `record` (the transaction, for the history) is kept at once either way.
    func returnToCaller(_ callback: String, recording record: SimulatedTransaction) {
        guard let activity = current, activity.screens > 0, behaviour.screens != .milliseconds(0) else {
            emit(callback)
            self.record(record)
            finish()
            return
        }
        self.record(record)
        current!.pendingCallback = callback
        enter(.screens)
    }

    /// Enters a phase and waits as long as the behaviour says (or not at all).
    func enter(_ phase: TransactionPhase) {
        guard current != nil else { return }
        current!.phase = phase
        current!.waitingForRelease = false
        effects.append(.phase(phase))
        let duration =
            switch phase {
            case .cardPresentment: behaviour.cardPresentment
            case .screens: behaviour.screens.times(current!.screens)
            case .host, .idle: behaviour.host
            }
        switch duration {
        case .milliseconds(let milliseconds) where milliseconds <= 0:
            phaseEnded()
        case .milliseconds(let milliseconds):
            nextToken += 1
            current!.token = nextToken
            effects.append(.schedule(milliseconds: milliseconds, token: nextToken))
        case .manual:
            current!.waitingForRelease = true
        }
    }

    /// A scheduled phase end came due; stale tokens (an aborted or forgotten transaction) are ignored.
    func timerFired(token: UInt64) {
        guard let activity = current, activity.token == token, !activity.waitingForRelease else { return }
        phaseEnded()
    }

    /// Ends the current manual phase; false when the app is not waiting for a release.
    func release() -> Bool {
        guard current?.waitingForRelease == true else { return false }
        current!.waitingForRelease = false
        phaseEnded()
        return true
    }

    /// Forgets the transaction in flight (the app was restarted with its relay).
    func restart() {
        guard current != nil else { return }
        current = nil
        effects.append(.phase(.idle))
    }

    private func phaseEnded() {
        guard let activity = current else { return }
        if activity.phase == .screens {
            if let callback = activity.pendingCallback { emit(callback) }
            finish()
            return
        }
        switch activity.work {
        case .sale: saleStep(activity)
        case .cancel: cancelStep(activity)
        }
    }

    /// Ends the transaction in flight.
    func finish() {
        current = nil
        effects.append(.phase(.idle))
    }

    // MARK: - Output

    /// A builder for a callback in this lane's dialect and encoding.
    func builder(_ callback: String) -> CallbackBuilder {
        CallbackBuilder(callback: callback, platform: platform, encoding: behaviour.encoding)
    }

    /// Hands a callback URL over.
    func emit(_ url: String) {
        effects.append(.callback(url))
    }

    /// Records a completed transaction.
    @discardableResult
    func record(_ transaction: SimulatedTransaction) -> Int {
        effects.append(.recorded(transaction))
        if let open = batches.open { tallies[open.id.lowercased(), default: BatchTally()].add(transaction) }
        return book.append(transaction)
    }

    /// The next STAN (`referenceNumber`), six digits.
    func nextReferenceNumber() -> String {
        stan = stan >= 999_999 ? 1 : stan + 1
        let text = String(stan)
        return String(repeating: "0", count: 6 - text.utf8.count) + text
    }

    /// The current date as the app writes it.
    func transactionDate() -> String {
        dates.string(from: clock.now())
    }
}
