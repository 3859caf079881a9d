import Foundation
import Testing
import VivaCloud

/// The rules of a cloud command's session (CloudSessionMachine): never two charges, no success before the
/// transaction record, unknown and never failed when the truth is unknown.
@Suite("A cloud session's rules: events in, the next call out")
struct CloudSessionMachineTests {
    static let amount = 1234
    static let lost = VivaCloudError(.timeout, "no answer in 10 s")
    static let unknownSession = VivaCloudError(.notFound, "no such session", httpStatus: 404)

    static func session(success: Bool?, transactionId: String? = "tx-1") throws -> CloudTerminalSession {
        var fields: [String: Any] = ["sessionId": "s-1", "amount": amount, "message": "from the test"]
        if let success { fields["success"] = success }
        if let transactionId { fields["transactionId"] = transactionId }
        return try JSONDecoder().decode(
            CloudTerminalSession.self, from: JSONSerialization.data(withJSONObject: fields))
    }

    static func record(
        _ status: TransactionStatus, cents: Int = amount, type: TransactionType? = nil
    ) -> CheckoutTransaction {
        CheckoutTransaction(
            statusId: status, amount: Decimal(cents) / 100, orderCode: "1234567890", merchantTrns: "pos-1",
            cardNumber: "411111XXXXXX1111", insDate: nil, currencyCode: "978", transactionTypeId: type)
    }

    /// A machine whose approved session waits for its record.
    static func confirming(givesMoneyBack: Bool) throws -> CloudSessionMachine {
        var machine = CloudSessionMachine(amountCents: amount, givesMoneyBack: givesMoneyBack)
        _ = machine.start()
        _ = machine.postAnswered(.success(()))
        _ = machine.sessionAnswered(.success(.finished(try session(success: true))))
        return machine
    }

    @Test("a record's type must move money the command's way: a refund is no payment's record, nor a sale a refund's")
    func recordTypeDirection() throws {
        for (givesMoneyBack, agrees, differs) in [
            (false, TransactionType.charge, TransactionType.refund), (true, .refund, .charge),
        ] {
            var wrong = try Self.confirming(givesMoneyBack: givesMoneyBack)
            guard
                case .finish(.unknown(let unknown)) = wrong.transactionAnswered(
                    .success(Self.record(.finished, type: differs)))
            else {
                Issue.record("a record of type \(differs) confirmed a command with givesMoneyBack \(givesMoneyBack)")
                continue
            }
            #expect(unknown.disagreement && unknown.reason.contains("type \(differs)"))
            var right = try Self.confirming(givesMoneyBack: givesMoneyBack)
            guard case .finish(.approved) = right.transactionAnswered(.success(Self.record(.finished, type: agrees)))
            else {
                Issue.record("a record of type \(agrees) did not confirm")
                continue
            }
            var untyped = try Self.confirming(givesMoneyBack: givesMoneyBack)
            guard case .finish(.approved) = untyped.transactionAnswered(.success(Self.record(.finished))) else {
                Issue.record("a record Viva gave no type did not confirm")
                continue
            }
        }
    }

    @Test("an approved session is confirmed by its record before the command succeeds")
    func approvedAfterTheRecord() throws {
        var machine = CloudSessionMachine(amountCents: Self.amount)
        #expect(machine.start() == .post)
        #expect(machine.postAnswered(.success(())) == .none)
        #expect(machine.pollDue() == .askSession)
        #expect(machine.sessionAnswered(.success(.running)) == .none)
        #expect(machine.pollDue() == .askSession)
        let session = try Self.session(success: true)
        #expect(machine.sessionAnswered(.success(.finished(session))) == .askTransaction(id: "tx-1"))
        #expect(machine.result == nil, "no success before the record")
        let record = Self.record(.finished)
        #expect(machine.transactionAnswered(.success(record)) == .finish(.approved(session, record)))
        #expect(machine.pollDue() == .none)
    }

    @Test("a POST whose answer was lost is not posted again while Viva holds its session")
    func lostAnswerAsksFirst() throws {
        var machine = CloudSessionMachine(amountCents: Self.amount)
        #expect(machine.start() == .post)
        #expect(machine.postAnswered(.failure(Self.lost)) == .askSession)
        #expect(machine.sessionAnswered(.failure(VivaCloudError(.serverError, "503"))) == .none)
        #expect(machine.pollDue() == .askSession, "asked again, not posted")
        #expect(machine.sessionAnswered(.success(.running)) == .none)
        #expect(machine.pollDue() == .askSession)
        #expect(machine.sessionAnswered(.success(.finished(try Self.session(success: false)))) != .post)
    }

    @Test("only a session Viva does not know is posted again, a bounded number of times, then unknown")
    func unknownSessionPostedAgainBounded() {
        var machine = CloudSessionMachine(amountCents: Self.amount)
        var posts = machine.start() == .post ? 1 : 0
        var last = CloudSessionMachine.Action.none
        for _ in 0..<10 {
            #expect(machine.postAnswered(.failure(Self.lost)) == .askSession)
            last = machine.sessionAnswered(.failure(Self.unknownSession))
            guard last == .post else { break }
            posts += 1
        }
        #expect(posts == machine.limits.posts)
        guard case .finish(.unknown(let unknown)) = last else {
            Issue.record("ended \(last), not unknown")
            return
        }
        #expect(unknown.reason.contains("not posted again"))
    }

    @Test("a request Viva refused as such ends refused: nothing was started")
    func refusedRequest() {
        var machine = CloudSessionMachine(amountCents: Self.amount)
        _ = machine.start()
        let refusal = VivaCloudError(.rejected, "terminalId unknown", httpStatus: 400)
        #expect(machine.postAnswered(.failure(refusal)) == .finish(.refused(refusal)))
    }

    @Test("a declined session ends declined, with no record asked for")
    func declined() throws {
        var machine = CloudSessionMachine(amountCents: Self.amount)
        _ = machine.start()
        _ = machine.postAnswered(.success(()))
        let session = try Self.session(success: false, transactionId: nil)
        #expect(machine.sessionAnswered(.success(.finished(session))) == .finish(.declined(session)))
    }

    @Test(
        "a record that disagrees with an approved session ends the command unknown, with disagreement",
        arguments: [(TransactionStatus.error, amount), (.finished, amount + 100), (.active, amount)])
    func recordDisagrees(status: TransactionStatus, cents: Int) throws {
        var machine = CloudSessionMachine(amountCents: Self.amount)
        _ = machine.start()
        _ = machine.postAnswered(.success(()))
        _ = machine.sessionAnswered(.success(.finished(try Self.session(success: true))))
        let action = machine.transactionAnswered(.success(Self.record(status, cents: cents)))
        guard case .finish(.unknown(let unknown)) = action else {
            Issue.record("ended \(action), not unknown")
            return
        }
        #expect(unknown.disagreement)
        #expect(unknown.record?.statusId == status)
    }

    @Test("a record that never appears ends the command unknown after the bounded look-ups, not failed")
    func recordNeverFound() throws {
        var machine = CloudSessionMachine(amountCents: Self.amount)
        _ = machine.start()
        _ = machine.postAnswered(.success(()))
        _ = machine.sessionAnswered(.success(.finished(try Self.session(success: true))))
        var action = CloudSessionMachine.Action.none
        for _ in 0..<machine.limits.recordLookups {
            action = machine.transactionAnswered(.failure(VivaCloudError(.notFound, "no such transaction")))
            if case .finish = action { break }
            #expect(machine.pollDue() == .askTransaction(id: "tx-1"))
        }
        guard case .finish(.unknown(let unknown)) = action else {
            Issue.record("ended \(action), not unknown")
            return
        }
        #expect(!unknown.disagreement)
    }

    @Test("at the deadline the session is deleted once and asked for until it ends; one that never ends is unknown")
    func deadlineAbortsOnce() {
        var machine = CloudSessionMachine(amountCents: Self.amount)
        _ = machine.start()
        _ = machine.postAnswered(.success(()))
        #expect(machine.deadlinePassed() == .deleteSession)
        #expect(machine.abortRequested() == .none, "deleted once")
        var polls = 0
        var action = machine.pollDue()
        while action == .askSession {
            polls += 1
            #expect(machine.sessionAnswered(.success(.running)) == .none)
            action = machine.pollDue()
        }
        #expect(polls == machine.limits.pollsAfterDeadline)
        guard case .finish(.unknown) = action else {
            Issue.record("ended \(action), not unknown")
            return
        }
    }

    @Test("after the deadline a session Viva does not know is never posted again")
    func noPostAfterTheDeadline() {
        var machine = CloudSessionMachine(amountCents: Self.amount)
        _ = machine.start()
        #expect(machine.deadlinePassed() == .deleteSession)
        #expect(machine.postAnswered(.failure(Self.lost)) == .askSession)
        let action = machine.sessionAnswered(.failure(Self.unknownSession))
        guard case .finish(.unknown) = action else {
            Issue.record("ended \(action), not unknown")
            return
        }
    }

    @Test("after a restart the session is asked for before anything is posted")
    func resumeAsksFirst() {
        var known = CloudSessionMachine(amountCents: Self.amount)
        #expect(known.resume() == .askSession)
        #expect(known.sessionAnswered(.success(.running)) == .none)
        #expect(known.pollDue() == .askSession)
        var never = CloudSessionMachine(amountCents: Self.amount)
        #expect(never.resume() == .askSession)
        #expect(never.sessionAnswered(.failure(Self.unknownSession)) == .post, "Viva never had it: posted")
    }

    @Test("a session Viva forgot while running ends unknown")
    func forgottenSession() {
        var machine = CloudSessionMachine(amountCents: Self.amount)
        _ = machine.start()
        _ = machine.postAnswered(.success(()))
        guard case .finish(.unknown) = machine.sessionAnswered(.failure(Self.unknownSession)) else {
            Issue.record("not unknown")
            return
        }
    }

    @Test("whatever Viva answers, in any order: at most the bounded posts, none after the deadline, one end")
    func randomAnswersKeepTheRules() throws {
        let approved = try Self.session(success: true)
        let answers: [(inout CloudSessionMachine) -> CloudSessionMachine.Action] = [
            { $0.postAnswered(.success(())) }, { $0.postAnswered(.failure(Self.lost)) },
            { $0.sessionAnswered(.success(.running)) }, { $0.sessionAnswered(.failure(Self.unknownSession)) },
            { $0.sessionAnswered(.success(.finished(approved))) },
            { $0.transactionAnswered(.success(Self.record(.finished))) },
            { $0.transactionAnswered(.success(Self.record(.error))) },
            { $0.transactionAnswered(.failure(VivaCloudError(.notFound, "none"))) }, { $0.pollDue() },
            { $0.deadlinePassed() }, { $0.abortRequested() },
        ]
        var random = SeededGenerator(seed: 44)
        for run in 0..<2000 {
            var machine = CloudSessionMachine(amountCents: Self.amount)
            var posts = machine.start() == .post ? 1 : 0
            var deadlinePassed = false
            var ends = 0
            var deletes = 0
            for _ in 0..<60 {
                let index = Int(random.next() % UInt64(answers.count))
                if index == 9 { deadlinePassed = true }
                let action = answers[index](&machine)
                switch action {
                case .post:
                    posts += 1
                    #expect(!deadlinePassed, "run \(run): posted after the deadline")
                case .finish(let result):
                    ends += 1
                    if case .approved(_, let record) = result {
                        #expect(record.statusId == .finished && record.amountCents == Self.amount)
                    }
                case .deleteSession: deletes += 1
                case .none, .askSession, .askTransaction: break
                }
            }
            #expect(posts <= machine.limits.posts, "run \(run): \(posts) posts")
            #expect(ends <= 1, "run \(run): ended \(ends) times")
            #expect(deletes <= 1, "run \(run): deleted \(deletes) times")
        }
    }

    @Test("a session id is the name-based UUID of the command's id in the journal's namespace")
    func sessionIdDerivation() throws {
        // RFC 9562's own version-5 example: the DNS namespace and "www.example.com".
        let dns = try #require(UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8"))
        #expect(
            CloudSessionId.derive(journal: dns, commandId: "www.example.com") == "2ed6657d-e927-568b-95e1-2665a8aea6a2")
        let journal = UUID()
        #expect(
            CloudSessionId.derive(journal: journal, commandId: "s1")
                == CloudSessionId.derive(journal: journal, commandId: "s1"))
        #expect(
            CloudSessionId.derive(journal: journal, commandId: "s1")
                != CloudSessionId.derive(journal: journal, commandId: "s2"))
        #expect(
            CloudSessionId.derive(journal: journal, commandId: "s1")
                != CloudSessionId.derive(journal: UUID(), commandId: "s1"))
    }
}

/// A small deterministic generator (SplitMix64), so that a failing random run can be repeated.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
