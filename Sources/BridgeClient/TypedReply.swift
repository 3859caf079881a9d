import InterApp

/// Why a reply or an event body is not what the contract (schema/) says: the member and the rule.
public struct ContractDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The member, as a path (`error.code`, `result.lanes[0].faults`).
    public let member: String
    /// What was expected.
    public let expected: String

    /// Creates an error.
    public init(_ member: String, _ expected: String) {
        self.member = member
        self.expected = expected
    }

    public var description: String { "\(member): \(expected)" }
}

/// A reply as schema/reply.schema.json gives it, typed: what a client reads instead of string keys. The body
/// of a command's `result`, `unknown`, `late_result` and `resolved` events has the same members.
public struct TypedReply: Sendable, Equatable {
    /// The command's `id`; nil when the command had no valid id.
    public var id: String?
    /// The command's lane (terminal commands, and rejections that could read one).
    public var lane: String?
    /// The command's action.
    public var action: String?
    /// With security: the client that first sent the command.
    public var client: String?
    /// How the command ended.
    public var outcome: Outcome
    /// With `failure`: why, as far as the terminal said.
    public var reason: FailureReason?
    /// The terminal app's message, or the bridge's explanation.
    public var message: String?
    /// The terminal's answer (a terminal command), or a query's answer; see ``ping``, ``lanes``, ``status``.
    public var result: JSONObject?
    /// With `superseded`: the sale that went on.
    public var ref: String?
    /// With `rejected`: why.
    public var error: RejectionError?
    /// A success that approved another amount or tip than requested.
    public var amountMismatch: AmountMismatch?
    /// A capture's authorisation: the `pre_auth` command it captured.
    public var authorisation: String?
    /// A successful refund: which kind, and how much went back.
    public var refund: Refund?
    /// Whether the outcome came after the command had ended another way.
    public var late: Bool
    /// A late or resolved command's earlier answer.
    public var earlier: Earlier?
    /// An `unknown` command closed by hand.
    public var resolved: Resolution?

    /// `error` of a rejected command.
    public struct RejectionError: Sendable, Equatable {
        /// The code as sent (``knownCode`` when this version knows it).
        public var code: String
        /// The reason for a person.
        public var message: String
        /// With `unsupported_on_platform`: the platforms that have the action.
        public var platforms: [Platform]?
        /// The code, when this version of the client knows it.
        public var knownCode: RejectionCode? { RejectionCode(rawValue: code) }

        /// Reads a reply's `error` object.
        init(_ error: JSONObject) throws(ContractDecodingError) {
            let inner = Members(error, path: "error.")
            code = try inner.string("code")
            message = try inner.string("message")
            platforms = try inner.optionalArray("platforms")?.enumerated().map {
                (index, value) throws(ContractDecodingError) in
                guard let text = value.stringValue, let platform = Platform(rawValue: text) else {
                    throw ContractDecodingError("error.platforms[\(index)]", "ios or android")
                }
                return platform
            }
        }

        /// Why `reply` was refused, when it has an `error` that reads as the contract says, whatever the rest
        /// of it: a refusal's reason stays readable in a reply that breaks the contract elsewhere.
        public static func of(_ reply: JSONObject) -> RejectionError? {
            guard let error = reply["error"]?.objectValue else { return nil }
            return try? RejectionError(error)
        }
    }

    /// `amountMismatch`: cents requested and approved (nil where not known), and the tips when they differ.
    public struct AmountMismatch: Sendable, Equatable {
        public var requested: Int?
        public var approved: Int?
        public var requestedTip: Int?
        public var approvedTip: Int?
    }

    /// `refund`: an unreferenced or a fast refund, and the cents that went back (nil when not known).
    public struct Refund: Sendable, Equatable {
        public enum Kind: String, Sendable { case unreferenced, fast }
        public var kind: Kind
        public var amount: Int?
    }

    /// `earlier`: the outcome (nil when not known) and message the command had been answered before.
    public struct Earlier: Sendable, Equatable {
        public var outcome: Outcome?
        public var message: String?
    }

    /// `resolved`: the admin client (nil on plain sockets), when, and the note.
    public struct Resolution: Sendable, Equatable {
        public var by: String?
        public var at: String
        public var note: String?
    }

    /// Reads a reply (or the reply members of an event body); members it does not know are ignored, so a
    /// client keeps working when a later bridge adds one.
    public init(_ object: JSONObject) throws(ContractDecodingError) {
        let read = Members(object, path: "")
        id = try read.optionalString("id")
        lane = try read.optionalString("lane")
        action = try read.optionalString("action")
        client = try read.optionalString("client")
        outcome = try read.enumeration("outcome", Outcome.self)
        reason = try read.optionalEnumeration("reason", FailureReason.self)
        message = try read.optionalString("message")
        result = try read.optionalObject("result")
        ref = try read.optionalString("ref")
        error = try read.optionalObject("error").map { (error) throws(ContractDecodingError) in
            try RejectionError(error)
        }
        if let mismatch = try read.optionalObject("amountMismatch") {
            let inner = Members(mismatch, path: "amountMismatch.")
            amountMismatch = AmountMismatch(
                requested: try inner.optionalInteger("requested"), approved: try inner.optionalInteger("approved"),
                requestedTip: try inner.optionalInteger("requestedTip"),
                approvedTip: try inner.optionalInteger("approvedTip"))
        }
        authorisation = try read.optionalString("authorisation")
        if let refund = try read.optionalObject("refund") {
            let inner = Members(refund, path: "refund.")
            let kind: Refund.Kind = refund["fast"]?.boolValue == true ? .fast : .unreferenced
            self.refund = Refund(kind: kind, amount: try inner.optionalInteger("amount"))
        }
        late = try read.boolean("late")
        if let earlier = try read.optionalObject("earlier") {
            let inner = Members(earlier, path: "earlier.")
            self.earlier = Earlier(
                outcome: try inner.optionalEnumeration("outcome", Outcome.self),
                message: try inner.optionalString("message"))
        }
        if let resolved = try read.optionalObject("resolved") {
            let inner = Members(resolved, path: "resolved.")
            self.resolved = Resolution(
                by: try inner.optionalString("by"), at: try inner.string("at"), note: try inner.optionalString("note"))
        }
    }

    /// Reads a reply frame as received.
    public init(bytes: [UInt8]) throws(ContractDecodingError) {
        guard let object = (try? JSONValue.parse(bytes))?.objectValue else {
            throw ContractDecodingError("(the frame)", "one JSON object")
        }
        try self.init(object)
    }
}

extension TypedReply {
    /// `ping`'s answer.
    public struct Ping: Sendable, Equatable {
        public var version: String
        public var lanes: Int
        public var outstanding: Int
    }

    /// One lane of the `lanes` answer (the members a client most often needs; ``TypedReply/result`` has all).
    public struct Lane: Sendable, Equatable {
        public var lane: String
        public var connected: Bool
        public var platform: Platform
        /// (v1.3) How the bridge reaches the lane: `relay` or `cloud` (nil from a bridge before v1.3).
        public var transport: String?
        /// The command in flight, if any.
        public var inFlight: InFlight?
        /// The open batch, if any: its name (nil for an automatic batch).
        public var openBatch: OpenBatch?
        /// The outcome of the lane's last command to become final since the bridge started.
        public var lastOutcome: Outcome?
        /// Whether a reload removed the lane while a command was in flight on it.
        public var removing: Bool
        /// When the lane's last callback came (RFC 3339), if one came since the bridge started.
        public var lastCallbackAt: String?

        /// `inFlight`: its action, id and state.
        public struct InFlight: Sendable, Equatable {
            public var action: String
            public var id: String
            public var state: String
        }

        /// `openBatch`: its name and id (nil when not known), and whether the app opened it by itself.
        public struct OpenBatch: Sendable, Equatable {
            public var name: String?
            public var id: String?
            public var automatic: Bool
        }
    }

    /// `status`'s answer: the state of `ref`, and its stored reply once final.
    public struct Status: Sendable, Equatable {
        public var ref: String
        public var state: String
        public var lane: String?
        public var action: String?
        /// With security: the client that first sent the command.
        public var client: String?
        public var outcome: Outcome?
        public var reply: TypedReply?
    }

    /// `ping`'s answer, when this is one.
    public func ping() throws(ContractDecodingError) -> Ping? {
        guard action == "ping", outcome == .success, let result else { return nil }
        let read = Members(result, path: "result.")
        return Ping(
            version: try read.string("version"), lanes: try read.integer("lanes"),
            outstanding: try read.integer("outstanding"))
    }

    /// `lanes`' answer, when this is one: the lanes, and the event stream's `epoch` and `seq` at the snapshot.
    public func lanes() throws(ContractDecodingError) -> (lanes: [Lane], epoch: Int?, seq: Int?)? {
        guard action == "lanes", outcome == .success, let result else { return nil }
        let read = Members(result, path: "result.")
        var lanes: [Lane] = []
        for (index, value) in try read.array("lanes").enumerated() {
            let path = "result.lanes[\(index)]."
            guard let object = value.objectValue else { throw ContractDecodingError(path, "an object") }
            let lane = Members(object, path: path)
            var inFlight: Lane.InFlight?
            if let flight = try lane.optionalObject("inFlight") {
                let inner = Members(flight, path: path + "inFlight.")
                inFlight = Lane.InFlight(
                    action: try inner.string("action"), id: try inner.string("id"), state: try inner.string("state"))
            }
            var openBatch: Lane.OpenBatch?
            if let batch = try lane.optionalObject("openBatch") {
                let inner = Members(batch, path: path + "openBatch.")
                openBatch = Lane.OpenBatch(
                    name: try inner.optionalString("name"), id: try inner.optionalString("id"),
                    automatic: batch["automatic"]?.boolValue == true)
            }
            var lastOutcome: Outcome?
            if let last = try lane.optionalObject("lastResult") {
                lastOutcome = try Members(last, path: path + "lastResult.").enumeration("outcome", Outcome.self)
            }
            lanes.append(
                Lane(
                    lane: try lane.string("lane"), connected: try lane.boolean("connected"),
                    platform: try lane.enumeration("platform", Platform.self),
                    transport: try lane.optionalString("transport"), inFlight: inFlight,
                    openBatch: openBatch, lastOutcome: lastOutcome, removing: object["removing"]?.boolValue == true,
                    lastCallbackAt: try lane.optionalString("lastCallbackAt")))
        }
        return (lanes, try read.optionalInteger("epoch"), try read.optionalInteger("seq"))
    }

    /// `status`' answer, when this is one.
    public func status() throws(ContractDecodingError) -> Status? {
        guard action == "status", outcome == .success, let result else { return nil }
        let read = Members(result, path: "result.")
        return Status(
            ref: try read.string("ref"), state: try read.string("state"), lane: try read.optionalString("lane"),
            action: try read.optionalString("action"), client: try read.optionalString("client"),
            outcome: try read.optionalEnumeration("outcome", Outcome.self),
            reply: try read.optionalObject("reply").map { (object) throws(ContractDecodingError) in
                try TypedReply(object)
            })
    }
}

/// Typed reads of an object's members, naming the member in every error.
struct Members {
    let object: JSONObject
    let path: String

    init(_ object: JSONObject, path: String) {
        self.object = object
        self.path = path
    }

    private func fail(_ key: String, _ expected: String) -> ContractDecodingError {
        ContractDecodingError(path + key, expected)
    }

    /// The value, nil when absent or null.
    private func value(_ key: String) -> JSONValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    func string(_ key: String) throws(ContractDecodingError) -> String {
        guard let text = try optionalString(key) else { throw fail(key, "a string (required)") }
        return text
    }

    func optionalString(_ key: String) throws(ContractDecodingError) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.stringValue else { throw fail(key, "a string") }
        return text
    }

    func integer(_ key: String) throws(ContractDecodingError) -> Int {
        guard let number = try optionalInteger(key) else { throw fail(key, "an integer (required)") }
        return number
    }

    func optionalInteger(_ key: String) throws(ContractDecodingError) -> Int? {
        guard let value = value(key) else { return nil }
        guard case .number(let number) = value, number.isInteger, let integer = number.intValue else {
            throw fail(key, "an integer")
        }
        return integer
    }

    func boolean(_ key: String) throws(ContractDecodingError) -> Bool {
        guard let flag = value(key)?.boolValue else { throw fail(key, "a boolean (required)") }
        return flag
    }

    func optionalObject(_ key: String) throws(ContractDecodingError) -> JSONObject? {
        guard let value = value(key) else { return nil }
        guard let object = value.objectValue else { throw fail(key, "an object") }
        return object
    }

    func array(_ key: String) throws(ContractDecodingError) -> [JSONValue] {
        guard let array = try optionalArray(key) else { throw fail(key, "an array (required)") }
        return array
    }

    func optionalArray(_ key: String) throws(ContractDecodingError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard let array = value.arrayValue else { throw fail(key, "an array") }
        return array
    }

    func enumeration<T: RawRepresentable>(_ key: String, _ type: T.Type) throws(ContractDecodingError) -> T
    where T.RawValue == String {
        guard let value = try optionalEnumeration(key, type) else { throw fail(key, "one of its values (required)") }
        return value
    }

    func optionalEnumeration<T: RawRepresentable>(_ key: String, _ type: T.Type) throws(ContractDecodingError) -> T?
    where T.RawValue == String {
        guard let text = try optionalString(key) else { return nil }
        guard let value = T(rawValue: text) else { throw fail(key, "a value of the contract, not \(text)") }
        return value
    }
}
