import InterApp

extension StoredCommand {
    /// Its stored reply as an object; nil when it has none, or none that reads as an object.
    var replyObject: JSONObject? {
        guard let reply, case .object(let object)? = try? JSONValue.parse(Array(reply.utf8)) else { return nil }
        return object
    }

    /// The `earlier` member of a reply that replaces its stored one (a late result, a resolve): the outcome
    /// it had ended with, and the message of `storedReply` (its ``replyObject``) when there is one.
    func earlier(_ storedReply: JSONObject?) -> JSONObject {
        var earlier = JSONObject()
        earlier["outcome"] = outcome.map { .string($0.rawValue) } ?? .null
        if let message = storedReply?["message"] { earlier["message"] = message }
        return earlier
    }
}
