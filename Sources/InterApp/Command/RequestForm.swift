/// How an action is spelt in the request URL: the URL's `action` value and fixed parameters after the command's.
public struct RequestForm: Sendable, Equatable {
    /// The value of the URL's `action` parameter (`sale`; for a future reprint on Android, `print`).
    public let action: String
    /// Parameters the bridge adds after the command's own, before `callback` (`protocol=int_default` for a sale).
    public let trailing: [Parameter]

    /// Creates a form.
    public init(action: String, trailing: [Parameter] = []) {
        self.action = action
        self.trailing = trailing
    }
}
