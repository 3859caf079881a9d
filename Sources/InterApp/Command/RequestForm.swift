/// How an action is spelt in the request URL: the URL's `action` value and fixed parameters around the command's.
public struct RequestForm: Sendable, Equatable {
    /// The value of the URL's `action` parameter (`sale`; for a reprint on Android, `print`).
    public let action: String
    /// Parameters the bridge adds right after `action`, before the command's own (`command=reprint` for a
    /// reprint on Android).
    public let leading: [Parameter]
    /// Parameters the bridge adds after the command's own, before `callback` (`protocol=int_default` for a sale).
    public let trailing: [Parameter]

    /// Creates a form.
    public init(action: String, leading: [Parameter] = [], trailing: [Parameter] = []) {
        self.action = action
        self.leading = leading
        self.trailing = trailing
    }
}
