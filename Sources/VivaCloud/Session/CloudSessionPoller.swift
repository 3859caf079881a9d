import Logging
import VivaCloudModels

/// The one poller of every cloud session in flight: each session's ``CloudSessionMachine`` fed with Viva's
/// answers, at most one request a session at a time and, past the first, one a poll interval.
///
/// It runs on the HTTP client's event loop and the cooperative pool, never on the caller's thread; results
/// reach the caller through `emit`, to be handed to its loop like any other input. Start ``run()`` once (a
/// task the owner cancels at shutdown); sessions still in flight then are resumed by the next start from
/// the journal (``resume(_:limits:)``).
public actor CloudSessionPoller {
    private struct Entry {
        var machine: CloudSessionMachine
        var request: CloudTerminalRequest
        /// A request of this session is out.
        var busy = false
        /// The call to make at the next poll, instead of asking what changed.
        var next: CloudSessionMachine.Action?
    }

    private let client: VivaCloudClient
    private let pollInterval: Duration
    private let emit: @Sendable (CloudSessionEvent) -> Void
    private let logger: Logger
    /// Where each request's task runs (nil: the cooperative pool).
    private let executor: (any TaskExecutor)?
    private var entries: [String: Entry] = [:]
    private var reachable: Bool?

    /// A poller of `client`'s sessions, polling every `pollInterval` (the configuration's `pollMs`); each
    /// request runs on `executor` when given (a thread of its own: a pool held by blocking calls never delays
    /// a session).
    public init(
        client: VivaCloudClient, pollInterval: Duration, logger: Logger = Logger(label: "vivabridge.cloud"),
        executor: (any TaskExecutor)? = nil, emit: @escaping @Sendable (CloudSessionEvent) -> Void
    ) {
        self.executor = executor
        self.client = client
        self.pollInterval = pollInterval
        self.logger = logger
        self.emit = emit
    }

    /// The sessions in flight.
    public var inFlight: Int { entries.count }

    /// Posts a new command's request, a sale, capture or refund (journaled by the caller first).
    public func begin(_ request: CloudTerminalRequest, limits: CloudSessionMachine.Limits = .init()) {
        add(request, limits: limits) { $0.start() }
    }

    /// Takes up a command journaled before a restart: its session is asked for before anything is posted.
    public func resume(_ request: CloudTerminalRequest, limits: CloudSessionMachine.Limits = .init()) {
        add(request, limits: limits) { $0.resume() }
    }

    /// The caller's `abort` of the command of this session: the session is deleted; it ends by its answer.
    public func abort(sessionId: String) {
        event(sessionId) { $0.abortRequested() }
    }

    /// The command's deadline passed: the session is deleted and asked for until it ends.
    public func deadlinePassed(sessionId: String) {
        event(sessionId) { $0.deadlinePassed() }
    }

    /// Stops driving the session (its command ended without it, past every bound); an answer still under way
    /// is dropped.
    public func forget(sessionId: String) {
        entries[sessionId] = nil
    }

    /// Polls every session in flight every poll interval until cancelled.
    public func run() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: pollInterval) } catch { return }
            for sessionId in entries.keys { poll(sessionId) }
        }
    }

    private func add(
        _ request: CloudTerminalRequest, limits: CloudSessionMachine.Limits,
        first: (inout CloudSessionMachine) -> CloudSessionMachine.Action
    ) {
        guard entries[request.sessionId] == nil else { return }
        var entry = Entry(
            machine: CloudSessionMachine(
                amountCents: request.amount, givesMoneyBack: request.call.givesMoneyBack, limits: limits),
            request: request)
        let action = first(&entry.machine)
        entries[request.sessionId] = entry
        perform(action, sessionId: request.sessionId)
    }

    private func event(_ sessionId: String, _ body: (inout CloudSessionMachine) -> CloudSessionMachine.Action) {
        guard var entry = entries[sessionId] else { return }
        let action = body(&entry.machine)
        entries[sessionId] = entry
        perform(action, sessionId: sessionId)
    }

    private func poll(_ sessionId: String) {
        guard var entry = entries[sessionId], !entry.busy else { return }
        let action = entry.next ?? entry.machine.pollDue()
        entry.next = nil
        entries[sessionId] = entry
        perform(action, sessionId: sessionId)
    }

    /// An answer came: the machine's next call waits for the next poll, an end is told at once.
    private func answered(_ sessionId: String, _ body: (inout CloudSessionMachine) -> CloudSessionMachine.Action) {
        guard var entry = entries[sessionId] else { return }
        entry.busy = false
        let action = body(&entry.machine)
        if case .finish = action {
            entries[sessionId] = entry
            perform(action, sessionId: sessionId)
        } else {
            entry.next = action == .none ? nil : action
            entries[sessionId] = entry
        }
    }

    private func perform(_ action: CloudSessionMachine.Action, sessionId: String) {
        guard let request = entries[sessionId]?.request else { return }
        switch action {
        case .none:
            return
        case .finish(let result):
            entries[sessionId] = nil
            emit(.finished(sessionId: sessionId, result))
            return
        case .post, .askSession, .askTransaction:
            entries[sessionId]?.busy = true
        case .deleteSession:
            break
        }
        let client = client
        Task(executorPreference: executor) { [self] in
            switch action {
            case .post:
                let answer = await Self.capture { () async throws(VivaCloudError) in
                    try await client.startSession(request)
                }
                await postAnswered(sessionId, answer)
            case .askSession:
                let answer = await Self.capture { () async throws(VivaCloudError) in
                    try await client.session(id: sessionId, cashRegisterId: request.cashRegisterId)
                }
                await sessionAnswered(sessionId, answer)
            case .askTransaction(let id):
                let answer = await Self.capture { () async throws(VivaCloudError) in
                    try await client.transaction(id: id)
                }
                await transactionAnswered(sessionId, answer)
            case .deleteSession:
                let answer = await Self.capture { () async throws(VivaCloudError) in
                    try await client.abortSession(id: sessionId, cashRegisterId: request.cashRegisterId)
                }
                await sawReachable(answer.isAnswered)
            case .none, .finish:
                break
            }
        }
    }

    private func sessionAnswered(_ sessionId: String, _ answer: Result<CloudTerminalSessionState, VivaCloudError>) {
        sawReachable(answer.isAnswered)
        answered(sessionId) { $0.sessionAnswered(answer) }
    }

    private func transactionAnswered(_ sessionId: String, _ answer: Result<CheckoutTransaction, VivaCloudError>) {
        sawReachable(answer.isAnswered)
        answered(sessionId) { $0.transactionAnswered(answer) }
    }

    private func postAnswered(_ sessionId: String, _ answer: Result<Void, VivaCloudError>) {
        sawReachable(answer.isAnswered)
        if case .success = answer { emit(.posted(sessionId: sessionId)) }
        answered(sessionId) { $0.postAnswered(answer) }
    }

    private func sawReachable(_ now: Bool) {
        guard reachable != now else { return }
        reachable = now
        if !now { logger.warning("Viva's cloud did not answer: cloud lanes are down until it does") }
        emit(.reachable(now))
    }

    private static func capture<T: Sendable>(
        _ body: () async throws(VivaCloudError) -> T
    ) async -> Result<T, VivaCloudError> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}

extension Result where Failure == VivaCloudError {
    /// True when Viva answered (whatever it said), false when it could not be reached in time.
    var isAnswered: Bool {
        switch self {
        case .success: true
        case .failure(let error):
            switch error.code {
            case .timeout, .unreachable, .serverError, .shutDown: false
            default: true
            }
        }
    }
}
