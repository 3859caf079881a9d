import InterApp

/// `vivabridge watch --json`: one event per line, `{"topic":…,"event":{…}}`, for `jq` and other pipes.
enum WatchJSONLine {
    /// The line for an event (without its newline). A body that is not a JSON object is kept as a string
    /// under `raw`, so that nothing the bridge sent is dropped.
    static func line(topic: String, body: [UInt8]) -> String {
        var line = JSONObject()
        line["topic"] = .string(topic)
        if let object = try? JSONValue.parse(body).objectValue {
            line["event"] = .object(object)
        } else {
            line["raw"] = .string(String(decoding: body, as: UTF8.self))
        }
        return JSONValue.object(line).serializedString
    }
}
