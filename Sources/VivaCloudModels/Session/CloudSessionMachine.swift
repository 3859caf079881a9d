/// The rules of one command's session at Viva's Cloud Terminal API, in swift-nio's style: each event is a
/// mutating method that returns the one call to make next; no I/O and no clock (the caller's poller says
/// when a poll is due and when the command's deadline passed).
///
/// What it guarantees:
/// - **Never two charges.** A POST whose answer was lost (timeout, 5xx, a dropped connection) is never
///   posted again blindly: the session is asked for first, and only a session Viva does not know is posted
///   again, under the same session id, a bounded number of times and never after the deadline.
/// - **No success before the record.** A session that says approved is confirmed by its transaction record
///   (`F`, the same amount, and when Viva gives its type, money moving the way the call moves it: a refund's
///   record is no payment's); a record that disagrees ends the command unknown, with `disagreement`.
/// - **Unknown, never failed, when the truth is unknown.** A session Viva forgot, a record never found, a
///   session still running long after its abort: unknown, for Viva's records by day to settle.
public struct CloudSessionMachine: Sendable {
    /// The bounds of the rules above.
    public struct Limits: Sendable, Equatable {
        /// How many times one session may be posted (the first POST included).
        public var posts = 3
        /// How many polls a transaction record may be missing before the command ends unknown.
        public var recordLookups = 10
        /// How many polls after the deadline a session may keep running before the command ends unknown.
        public var pollsAfterDeadline = 30

        /// The default bounds.
        public init() {}
    }

    /// The call the caller makes next.
    public enum Action: Sendable, Equatable {
        /// Nothing until the next event (a poll due, an answer).
        case none
        /// `POST transactions:sale` (or the command's call) under the session id.
        case post
        /// `GET sessions/{id}`.
        case askSession
        /// `DELETE sessions/{id}`: abort the session; its end is still learned by asking for it.
        case deleteSession
        /// `GET /checkout/v2/transactions/{id}`.
        case askTransaction(id: String)
        /// The command is over: record this result (journal first), then reply and publish.
        case finish(CloudSessionResult)
    }

    enum State: Sendable, Equatable {
        /// Journaled, nothing sent yet.
        case journaled
        /// A POST is out (the `posts`th), its answer awaited.
        case posting(posts: Int)
        /// A POST's answer was lost, or the bridge restarted: is the session at Viva?
        case checking(posts: Int)
        /// Viva holds the session; it is asked for at every poll.
        case running
        /// The session approved it; its transaction record is asked for.
        case confirming(CloudTerminalSession, transactionId: String, lookups: Int)
        case finished(CloudSessionResult)
    }

    /// Where the command stands against its deadline; orthogonal to the session's state.
    enum Deadline: Sendable, Equatable {
        case ahead
        case passed(pollsSince: Int)
    }

    private(set) var state = State.journaled
    private(set) var deadline = Deadline.ahead
    private var deleteSent = false
    /// The amount of the command, in cents: what the transaction record must show.
    public let amountCents: Int
    /// Whether the command gives money back to a card (``CloudTerminalCall/givesMoneyBack``): what the
    /// record's type, when Viva gives it, must say.
    public let givesMoneyBack: Bool
    /// The bounds in force.
    public let limits: Limits

    /// A machine for a command of `amountCents`, journaled and not yet sent; `givesMoneyBack` for a refund.
    public init(amountCents: Int, givesMoneyBack: Bool = false, limits: Limits = Limits()) {
        self.amountCents = amountCents
        self.givesMoneyBack = givesMoneyBack
        self.limits = limits
    }

    /// The result, once the command is over.
    public var result: CloudSessionResult? {
        if case .finished(let result) = state { result } else { nil }
    }

    /// A new command, journaled: post it.
    public mutating func start() -> Action {
        guard case .journaled = state else { return .none }
        state = .posting(posts: 1)
        return .post
    }

    /// A command journaled before a restart, whose POST may or may not have reached Viva: ask first.
    public mutating func resume() -> Action {
        guard case .journaled = state else { return .none }
        state = .checking(posts: 1)
        return .askSession
    }

    /// The POST's answer.
    public mutating func postAnswered(_ answer: Result<Void, VivaCloudError>) -> Action {
        guard case .posting(let posts) = state else { return .none }
        switch answer {
        case .success:
            state = .running
            return .none
        case .failure(let error) where Self.refusedBeforeSending(error):
            return finish(.refused(error))
        case .failure:
            state = .checking(posts: posts)
            return .askSession
        }
    }

    /// The answer to `GET sessions/{id}`.
    public mutating func sessionAnswered(_ answer: Result<CloudTerminalSessionState, VivaCloudError>) -> Action {
        switch (state, answer) {
        case (.checking, .success(.running)):
            state = .running
            return .none
        case (.checking, .success(.finished(let session))), (.running, .success(.finished(let session))):
            return sessionEnded(session)
        case (.checking(let posts), .failure(let error)) where error.code == .notFound:
            return postAgainIfAllowed(after: posts)
        case (.running, .failure(let error)) where error.code == .notFound:
            return finish(.unknown(CloudSessionUnknown(reason: "Viva no longer knows the session it was running")))
        default:
            return .none
        }
    }

    /// The answer to `GET /checkout/v2/transactions/{id}`.
    public mutating func transactionAnswered(_ answer: Result<CheckoutTransaction, VivaCloudError>) -> Action {
        guard case .confirming(let session, let transactionId, let lookups) = state else { return .none }
        switch answer {
        case .success(let record) where confirms(record):
            return finish(.approved(session, record))
        case .success(let record):
            let type = record.transactionTypeId.map { ", type \($0)" } ?? ""
            let found = "status \(record.statusId)\(type), \(record.amountCents) cents against \(amountCents)"
            return finish(
                .unknown(
                    CloudSessionUnknown(
                        reason: "Viva's session approved transaction \(transactionId) but its record shows \(found)",
                        disagreement: true, session: session, record: record)))
        case .failure(let error) where error.code == .notFound && lookups >= limits.recordLookups:
            return finish(
                .unknown(
                    CloudSessionUnknown(
                        reason: "Viva's session approved transaction \(transactionId), which Viva's records do not "
                            + "show after \(lookups) look-ups", session: session)))
        case .failure(let error) where error.code == .notFound:
            state = .confirming(session, transactionId: transactionId, lookups: lookups + 1)
            return .none
        case .failure:
            return .none
        }
    }

    /// Whether `record` confirms the approved session: `F`, the command's amount, and a type (when Viva gives
    /// one this client sorts) that moves money the command's way.
    private func confirms(_ record: CheckoutTransaction) -> Bool {
        record.statusId == .finished && record.amountCents == amountCents
            && (record.transactionTypeId?.givesMoneyBack ?? givesMoneyBack) == givesMoneyBack
    }

    /// A poll is due (every `pollMs`): the call that learns what changed, if any.
    public mutating func pollDue() -> Action {
        if case .passed(let polls) = deadline, isWaitingForTheSession {
            guard polls < limits.pollsAfterDeadline else {
                return finish(
                    .unknown(
                        CloudSessionUnknown(
                            reason:
                                "the session still had no result \(polls) polls after it was aborted at its deadline"
                        )))
            }
            deadline = .passed(pollsSince: polls + 1)
        }
        switch state {
        case .checking, .running: return .askSession
        case .confirming(_, let transactionId, _): return .askTransaction(id: transactionId)
        case .journaled, .posting, .finished: return .none
        }
    }

    /// The command's deadline passed: abort the session (once), then keep asking for its end.
    public mutating func deadlinePassed() -> Action {
        guard case .ahead = deadline else { return .none }
        deadline = .passed(pollsSince: 0)
        return isWaitingForTheSession ? deleteOnce() : .none
    }

    /// The caller asked to abort (an `abort` command): delete the session (once); it ends by its own answer.
    public mutating func abortRequested() -> Action {
        isWaitingForTheSession ? deleteOnce() : .none
    }

    private var isWaitingForTheSession: Bool {
        switch state {
        case .posting, .checking, .running: true
        case .journaled, .confirming, .finished: false
        }
    }

    private mutating func deleteOnce() -> Action {
        guard !deleteSent else { return .none }
        deleteSent = true
        return .deleteSession
    }

    private mutating func sessionEnded(_ session: CloudTerminalSession) -> Action {
        switch session.success {
        case true?:
            guard let transactionId = session.transactionId, !transactionId.isEmpty else {
                return finish(
                    .unknown(
                        CloudSessionUnknown(
                            reason: "Viva's session says approved but names no transaction", session: session)))
            }
            state = .confirming(session, transactionId: transactionId, lookups: 1)
            return .askTransaction(id: transactionId)
        case false?:
            return finish(.declined(session))
        case nil:
            return finish(
                .unknown(CloudSessionUnknown(reason: "Viva's session ended without saying whether", session: session)))
        }
    }

    private mutating func postAgainIfAllowed(after posts: Int) -> Action {
        if case .passed = deadline {
            return finish(
                .unknown(
                    CloudSessionUnknown(
                        reason: "Viva does not know the session and its deadline passed: not posted again")))
        }
        guard posts < limits.posts else {
            return finish(
                .unknown(
                    CloudSessionUnknown(reason: "Viva did not take the session in \(posts) posts: not posted again")))
        }
        state = .posting(posts: posts + 1)
        return .post
    }

    private mutating func finish(_ result: CloudSessionResult) -> Action {
        state = .finished(result)
        return .finish(result)
    }

    /// True for an error that proves Viva did not start anything: the request was refused as such, or never
    /// left the bridge. Timeouts, 5xx, a lost connection and a bad answer prove nothing.
    static func refusedBeforeSending(_ error: VivaCloudError) -> Bool {
        switch error.code {
        case .invalidSettings, .secretFile, .insecureURL, .unauthorized, .rejected: true
        case .notFound, .rateLimited, .serverError, .timeout, .unreachable, .invalidResponse, .shutDown: false
        }
    }
}
