extension Command: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `Command(id: "a", sale on lane-1: amount=1200, …)`; secrets show as `***`.
    public var description: String {
        var text = "Command(id: \(id.debugDescription), "
        switch body {
        case .terminal(let command): text += command.description
        case .status(let ref): text += "status of \(ref.debugDescription)"
        case .lanes: text += "lanes"
        case .ping: text += "ping"
        case .resolve(let ref, let outcome, _): text += "resolve \(ref.debugDescription) as \(outcome.rawValue)"
        }
        if let timeoutMs { text += ", timeoutMs: \(timeoutMs)" }
        return text + ")"
    }

    /// Same as ``description``: never shows a secret.
    public var debugDescription: String { description }

    /// Children without secrets, so that `dump` and debuggers show none.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "id": id, "action": action, "body": String(describing: body), "timeoutMs": timeoutMs as Any,
                "fingerprint": fingerprint,
            ])
    }
}

extension Command.Body: CustomStringConvertible {
    /// A one-line summary; secrets show as `***`.
    public var description: String {
        switch self {
        case .terminal(let command): command.description
        case .status(let ref): "status(ref: \(ref.debugDescription))"
        case .lanes: "lanes"
        case .ping: "ping"
        case .resolve(let ref, let outcome, _): "resolve(ref: \(ref.debugDescription), outcome: \(outcome.rawValue))"
        }
    }
}
