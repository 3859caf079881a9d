/// One entry of the action table: everything the bridge knows about a terminal action.
///
/// The command decoder checks a command against its entry (parameters, kinds, ranges, cross-field rules), and
/// ``RequestURL`` builds the URL from it. A new action is a new entry, not a new code path: see
/// `ActionSpec+V1.swift` for the five actions of contract v1 and `ActionSpec+V11.swift` for those added in v1.1.
public struct ActionSpec: Sendable {
    /// The action.
    public let action: TerminalAction
    /// The parameters a command may carry, in the table's order.
    public let parameters: [ParameterSpec]
    /// The rules across parameters.
    public let rules: [ParameterRule]
    /// The URL form used on every platform without an entry in ``platformRequests``.
    public let request: RequestForm
    /// URL forms that differ by platform (reprint is `print` on Android, `reprintTransaction` on iOS).
    public let platformRequests: [Platform: RequestForm]
    /// The platforms whose terminal app offers the action.
    public let platforms: Set<Platform>
    /// Whether a command without `clientTransactionId` gets its `id` as `clientTransactionId` (sales: so that
    /// every sale callback names its command).
    public let fillsClientTransactionId: Bool
    /// Whether an `abort` can stop it (Viva's abort page: a sale under way; the samples: a cancel waiting for
    /// the card). An "aborted" answer while an action that is not abortable is in flight leaves that action
    /// to its own callback.
    public let abortable: Bool
    /// Whether the terminal app never answers it, so that the relay's `opened` is its whole outcome
    /// (`foreground`: "no response is sent back", say Viva's pages).
    public let endsWhenOpened: Bool
    /// For an action that gives money back to a card (`unreferenced_refund`, `fast_refund`): how its successful
    /// reply marks it (`refund: {<key>: true, amount}`), so that it stands out in replies, events, `status`, the
    /// journal and the log. Nil for the others.
    public let refund: RefundMark?

    private let index: [String: Int]

    /// Creates an entry.
    public init(
        action: TerminalAction,
        parameters: [ParameterSpec] = [],
        rules: [ParameterRule] = [],
        request: RequestForm,
        platformRequests: [Platform: RequestForm] = [:],
        platforms: Set<Platform> = Set(Platform.allCases),
        fillsClientTransactionId: Bool = false,
        abortable: Bool = true,
        endsWhenOpened: Bool = false,
        refund: RefundMark? = nil
    ) {
        self.action = action
        self.parameters = parameters
        self.rules = rules
        self.request = request
        self.platformRequests = platformRequests
        self.platforms = platforms
        self.fillsClientTransactionId = fillsClientTransactionId
        self.abortable = abortable
        self.endsWhenOpened = endsWhenOpened
        self.refund = refund
        var index: [String: Int] = [:]
        for (position, parameter) in parameters.enumerated() { index[parameter.name] = position }
        self.index = index
    }

    /// The entry for the parameter called `name`, if the action takes it.
    public func parameter(named name: String) -> ParameterSpec? {
        index[name].map { parameters[$0] }
    }

    /// The URL form on `platform`.
    public func request(for platform: Platform) -> RequestForm {
        platformRequests[platform] ?? request
    }

    /// Whether the terminal app on `platform` offers the action.
    public func supports(_ platform: Platform) -> Bool {
        platforms.contains(platform)
    }
}

/// How a successful action that gives money back to a card is marked: `refund: {<key>: true, amount}` in its
/// reply, and a notice log "money given back to a card" with `refund=<key>`.
public struct RefundMark: Sendable, Equatable {
    /// The key set `true` in the reply's `refund` object (`unreferenced`, `fast`).
    public let key: String
    /// What happened, in words, for `vivabridge send` ("money back to a card with no sale").
    public let note: String

    /// Creates a mark.
    public init(key: String, note: String) {
        self.key = key
        self.note = note
    }
}
