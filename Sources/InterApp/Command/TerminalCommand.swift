/// A validated command for a terminal: the lane, the action and its parameters, ready to become a URL.
public struct TerminalCommand: Sendable, Equatable {
    /// The lane that runs it.
    public let lane: String
    /// The action.
    public let action: TerminalAction
    /// The parameters with Viva's names, in the order the command gave them. A sale always has
    /// `clientTransactionId`: filled from the command's `id` (appended last) when the command had none.
    public let parameters: [Parameter]

    /// Creates a terminal command as is, without checks; commands from outside go through ``CommandDecoder``.
    public init(lane: String, action: TerminalAction, parameters: [Parameter]) {
        self.lane = lane
        self.action = action
        self.parameters = parameters
    }

    /// The `clientTransactionId` parameter, if any. For a sale it names the sale; for `transactionDetails` it
    /// names the sale looked up.
    public var clientTransactionId: String? {
        parameter("clientTransactionId")
    }

    /// The name of the parameter by which a cloud lane's capture or refund names the bridge's own command
    /// whose transaction it takes or refunds (v1.3).
    public static let parentIdName = "parentId"

    /// The `id` of the command whose transaction this capture or refund takes (``parentIdName``), if given.
    public var parentId: String? {
        parameter(Self.parentIdName)
    }

    /// The value of the parameter called `name`, if present.
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    /// Checks that the terminal app on `platform` offers this action.
    /// - Throws: ``Rejection`` with ``RejectionCode/unsupportedOnPlatform`` and the platforms that have the
    ///   action (for example `transactionDetails` on iOS; `unknown_action` before v1.1).
    public func check(platform: Platform) throws(Rejection) {
        let spec = action.spec
        guard spec.supports(platform) else {
            let offered = Platform.allCases.filter(spec.supports)
            var rejection = Rejection(
                .unsupportedOnPlatform,
                "\(action.rawValue) is not offered by the Viva Terminal app on \(platform.rawValue) "
                    + "(lane \(Quote.short(lane)) is \(platform.rawValue)); it exists on: "
                    + offered.map(\.rawValue).joined(separator: ", ") + "; send it to a lane of one of those",
                lane: lane, action: action.rawValue)
            rejection.platforms = offered
            throw rejection
        }
    }
}

extension TerminalCommand: CustomStringConvertible, CustomDebugStringConvertible {
    /// `sale on lane-1: amount=1200, clientTransactionId=…`, secrets as `***`.
    public var description: String {
        "\(action.rawValue) on \(lane): " + parameters.map(\.description).joined(separator: ", ")
    }

    /// Same as ``description``: never shows a secret.
    public var debugDescription: String { "TerminalCommand(\(description))" }
}
