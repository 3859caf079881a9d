import InterApp

extension BridgeConfiguration {
    /// Turns a configuration tree into a checked configuration, or names the first key that is wrong.
    static func decode(_ tree: ConfigTree) throws(ConfigurationError) -> BridgeConfiguration {
        guard case .mapping(let pairs) = tree else {
            throw ConfigurationError(key: "", "the file must be a mapping of keys to values")
        }
        var config = BridgeConfiguration()
        try rejectUnknownKeys(pairs, allowed: topLevelKeys, path: "")
        if let value = tree["command"] { config.command = try endpoint(value, "command") }
        if let value = tree["commandPull"] { config.commandPull = try endpoint(value, "commandPull") }
        if let value = tree["events"] { config.events = try endpoint(value, "events") }
        if let value = tree["journal"] { config.journal = try nonEmpty(value, "journal") }
        if let value = tree["journalSync"] {
            let text = try scalar(value, "journalSync")
            guard let sync = JournalSync(rawValue: text) else {
                throw ConfigurationError(key: "journalSync", "must be normal or full, not \(text)")
            }
            config.journalSync = sync
        }
        if let value = tree["maxCommandBytes"] {
            config.maxCommandBytes = try integer(value, "maxCommandBytes", 256...16_777_216)
        }
        if let value = tree["abortGraceMs"] { config.abortGraceMs = try integer(value, "abortGraceMs", 0...60_000) }
        if let value = tree["shutdownGraceMs"] {
            config.shutdownGraceMs = try integer(value, "shutdownGraceMs", 0...600_000)
        }
        if let value = tree["heartbeatIntervalMs"] {
            config.heartbeatIntervalMs = try integer(value, "heartbeatIntervalMs", 100...60_000)
        }
        if let value = tree["heartbeatTimeoutMs"] {
            config.heartbeatTimeoutMs = try integer(value, "heartbeatTimeoutMs", 100...300_000)
        }
        if let value = tree["batchExpiryHours"] {
            config.batchExpiryHours = try integer(value, "batchExpiryHours", 1...720)
        }
        if let value = tree["log"] { config.log = try logSettings(value) }
        if let value = tree["terminal"] {
            config.terminal = try terminal(value, path: "terminal", base: config.terminal)
        }
        if let value = tree["lanes"] {
            config.lanes = try lanes(value, defaults: config.terminal)
        }
        try checkDistinctEndpoints(config)
        guard !config.lanes.isEmpty else {
            throw ConfigurationError(key: "lanes", "must list at least one lane (id, endpoint, platform)")
        }
        for (index, lane) in config.lanes.enumerated() where lane.terminal.merchantKey.allSatisfy(\.isWhitespace) {
            throw ConfigurationError(
                key: "lanes[\(index)].merchantKey",
                "is empty for lane \(lane.id): the terminal app refuses every request without one; set "
                    + "terminal.merchantKey (or VIVABRIDGE_TERMINAL_MERCHANTKEY) or the lane's own merchantKey")
        }
        return config
    }

    private static func logSettings(_ tree: ConfigTree) throws(ConfigurationError) -> LogSettings {
        guard case .mapping(let pairs) = tree else {
            throw ConfigurationError(key: "log", "must be a mapping with level and format")
        }
        try rejectUnknownKeys(pairs, allowed: logKeys, path: "log")
        var settings = LogSettings()
        if let value = tree["level"] {
            let level = try scalar(value, "log.level")
            guard LogSettings.levels.contains(level) else {
                throw ConfigurationError(
                    key: "log.level", "must be one of \(LogSettings.levels.joined(separator: ", ")), not \(level)")
            }
            settings.level = level
        }
        if let value = tree["format"] {
            let text = try scalar(value, "log.format")
            guard let format = LogSettings.Format(rawValue: text) else {
                throw ConfigurationError(key: "log.format", "must be text or json, not \(text)")
            }
            settings.format = format
        }
        return settings
    }

    private static func lanes(_ tree: ConfigTree, defaults: TerminalSettings) throws(ConfigurationError)
        -> [LaneConfiguration]
    {
        guard case .sequence(let items) = tree else {
            throw ConfigurationError(key: "lanes", "must be a list of lanes")
        }
        var lanes: [LaneConfiguration] = []
        for (index, item) in items.enumerated() {
            let path = "lanes[\(index)]"
            guard case .mapping(let pairs) = item else {
                throw ConfigurationError(key: path, "must be a mapping with id, endpoint and platform")
            }
            try rejectUnknownKeys(pairs, allowed: laneKeys + terminalKeys, path: path)
            guard let idNode = item["id"] else { throw ConfigurationError(key: "\(path).id", "is required") }
            let id = try nonEmpty(idNode, "\(path).id")
            guard id.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: ".") }), id.utf8.count <= 64 else {
                throw ConfigurationError(
                    key: "\(path).id", "must be 1 to 64 printable ASCII characters with no space and no dot, not \(id)")
            }
            if lanes.contains(where: { $0.id == id }) {
                throw ConfigurationError(key: "\(path).id", "duplicate lane id \(id)")
            }
            guard let endpointNode = item["endpoint"] else {
                throw ConfigurationError(key: "\(path).endpoint", "is required")
            }
            let laneEndpoint = try endpoint(endpointNode, "\(path).endpoint", allowWildcardPort: false)
            guard let platformNode = item["platform"] else {
                throw ConfigurationError(key: "\(path).platform", "is required (ios or android)")
            }
            let platformText = try scalar(platformNode, "\(path).platform")
            guard let platform = Platform(rawValue: platformText) else {
                throw ConfigurationError(key: "\(path).platform", "must be ios or android, not \(platformText)")
            }
            let settings = try terminal(item, path: path, base: defaults, ignoring: laneKeys)
            lanes.append(LaneConfiguration(id: id, endpoint: laneEndpoint, platform: platform, terminal: settings))
        }
        return lanes
    }

    private static func terminal(
        _ tree: ConfigTree, path: String, base: TerminalSettings, ignoring: [String] = []
    ) throws(ConfigurationError) -> TerminalSettings {
        guard case .mapping(let pairs) = tree else {
            throw ConfigurationError(key: path, "must be a mapping")
        }
        try rejectUnknownKeys(pairs, allowed: terminalKeys + ignoring, path: path)
        var settings = base
        if let value = tree["merchantKey"] { settings.merchantKey = try scalar(value, "\(path).merchantKey") }
        if let value = tree["appId"] { settings.appId = try nonEmpty(value, "\(path).appId") }
        if let value = tree["callback"] { settings.callback = try nonEmpty(value, "\(path).callback") }
        if let value = tree["timeoutMs"] {
            guard case .mapping(let timeouts) = value else {
                throw ConfigurationError(key: "\(path).timeoutMs", "must map actions to milliseconds")
            }
            for (name, node) in timeouts {
                guard let action = TerminalAction(rawValue: name) else {
                    let known = TerminalAction.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ConfigurationError(key: "\(path).timeoutMs.\(name)", "unknown action; known: \(known)")
                }
                settings.timeoutMs[action] = try integer(node, "\(path).timeoutMs.\(name)", 1000...600_000)
            }
        }
        return settings
    }

    /// No two sockets may share an endpoint: not two of the bridge's own, not two lanes, and no lane
    /// may point at one of the bridge's own sockets (the bridge would be its own relay).
    private static func checkDistinctEndpoints(_ config: BridgeConfiguration) throws(ConfigurationError) {
        var seen: [String: String] = [:]
        let own =
            [("command", config.command), ("events", config.events)]
            + (config.commandPull.map { [("commandPull", $0)] } ?? [])
        let lanes = config.lanes.enumerated().map { ("lanes[\($0.offset)].endpoint", $0.element.endpoint) }
        for (key, endpoint) in own + lanes where !endpoint.hasSuffix(":*") {
            let canonical = endpoint.replacingOccurrences(of: "://localhost:", with: "://127.0.0.1:")
            if let other = seen[canonical] {
                throw ConfigurationError(key: key, "uses \(endpoint), which \(other) already uses")
            }
            seen[canonical] = key
        }
    }

    private static func rejectUnknownKeys(
        _ pairs: [(key: String, value: ConfigTree)], allowed: [String], path: String
    ) throws(ConfigurationError) {
        for (key, _) in pairs where !allowed.contains(key) {
            let full = path.isEmpty ? key : "\(path).\(key)"
            let suggestion =
                allowed.first { $0.lowercased() == key.lowercased() }.map { " (did you mean \($0)?)" } ?? ""
            throw ConfigurationError(
                key: full, "unknown key\(suggestion); known keys: \(allowed.joined(separator: ", "))")
        }
    }

    private static func scalar(_ tree: ConfigTree, _ key: String) throws(ConfigurationError) -> String {
        guard case .scalar(let text) = tree else { throw ConfigurationError(key: key, "must be a single value") }
        return text
    }

    private static func nonEmpty(_ tree: ConfigTree, _ key: String) throws(ConfigurationError) -> String {
        let text = try scalar(tree, key)
        guard !text.isEmpty else { throw ConfigurationError(key: key, "must not be empty") }
        return text
    }

    private static func integer(_ tree: ConfigTree, _ key: String, _ range: ClosedRange<Int>) throws(ConfigurationError)
        -> Int
    {
        let text = try scalar(tree, key)
        guard let value = Int(text) else { throw ConfigurationError(key: key, "must be a whole number, not \(text)") }
        guard range.contains(value) else {
            throw ConfigurationError(
                key: key, "must be between \(range.lowerBound) and \(range.upperBound), not \(value)")
        }
        return value
    }

    private static func endpoint(_ tree: ConfigTree, _ key: String, allowWildcardPort: Bool = true)
        throws(ConfigurationError) -> String
    {
        let text = try scalar(tree, key)
        if let problem = EndpointCheck.problem(with: text, allowWildcardPort: allowWildcardPort) {
            throw ConfigurationError(key: key, "\(problem): \(text)")
        }
        return text
    }
}

/// Checks ZeroMQ endpoint syntax before libzmq sees it, so the error names the key.
enum EndpointCheck {
    /// A description of what is wrong with `endpoint`, or nil when it is well formed.
    static func problem(with endpoint: String, allowWildcardPort: Bool) -> String? {
        guard let range = endpoint.range(of: "://") else {
            return "an endpoint is transport://address, e.g. tcp://127.0.0.1:5555"
        }
        let transport = endpoint[..<range.lowerBound]
        let address = endpoint[range.upperBound...]
        switch transport {
        case "tcp":
            guard let colon = address.lastIndex(of: ":") else { return "a tcp endpoint needs host:port" }
            let host = address[..<colon]
            let port = address[address.index(after: colon)...]
            if host.isEmpty { return "a tcp endpoint needs a host (127.0.0.1, a name, or *)" }
            if port == "*" { return allowWildcardPort ? nil : "a lane's endpoint needs a real port" }
            guard let number = Int(port), (1...65535).contains(number) else {
                return "a tcp port is a number from 1 to 65535"
            }
            return nil
        case "ipc", "inproc":
            return address.isEmpty ? "\(transport):// needs a name" : nil
        default:
            return "unknown transport \(transport) (use tcp, ipc or inproc)"
        }
    }
}
