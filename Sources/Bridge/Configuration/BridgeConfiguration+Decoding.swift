import BridgeCore
import BridgeJournal
import InterApp

extension BridgeConfiguration {
    /// Turns a configuration tree into a checked configuration, or names the first key that is wrong.
    static func decode(_ tree: ConfigTree) throws(ConfigurationError) -> BridgeConfiguration {
        var problems = ConfigurationProblems()
        let config = decode(tree, problems: &problems)
        if let first = problems.all.first { throw first }
        return config
    }

    /// Decodes what it can and records every problem it meets, in file order: a wrong key does not hide
    /// the next one (`vivabridge check` prints them all).
    static func decode(_ tree: ConfigTree, problems: inout ConfigurationProblems) -> BridgeConfiguration {
        var config = BridgeConfiguration()
        guard case .mapping(let pairs) = tree else {
            problems.record(ConfigurationError(key: "", "the file must be a mapping of keys to values"))
            return config
        }
        problems.record(unknownKeys(pairs, allowed: topLevelKeys, path: ""))
        func take<T>(_ key: String, _ read: (ConfigTree) throws(ConfigurationError) -> T) -> T? {
            guard let value = tree[key] else { return nil }
            return problems.attempt { () throws(ConfigurationError) in try read(value) }
        }
        if let value = take("command", { v throws(ConfigurationError) in try endpoint(v, "command") }) {
            config.command = value
        }
        if let value = take("commandPull", { v throws(ConfigurationError) in try endpoint(v, "commandPull") }) {
            config.commandPull = value
        }
        if let value = take("events", { v throws(ConfigurationError) in try endpoint(v, "events") }) {
            config.events = value
        }
        if let value = take("journal", { v throws(ConfigurationError) in try journal(v) }) {
            config.journal = value
        }
        if let file = take(
            "journalPasswordFile", { v throws(ConfigurationError) in try nonEmpty(v, "journalPasswordFile") })
        {
            config.journalPasswordFile = file
            config.journalPassword = problems.attempt { () throws(ConfigurationError) in
                try JournalPassword.read(file: file, key: "journalPasswordFile")
            }
            if !PostgresAddress.isURL(config.journal) {
                problems.record(
                    ConfigurationError(
                        key: "journalPasswordFile",
                        "is for a journal on PostgreSQL, and journal is a file (\(config.journal)): remove "
                            + "journalPasswordFile, or set journal to a postgresql:// URL"))
            }
        }
        if let value = take("journalSync", journalSync) { config.journalSync = value }
        if let value = take("instance", instance) { config.instance = value }
        for (key, range, path) in integerKeys {
            if let value = take(key, { v throws(ConfigurationError) in try integer(v, key, range) }) {
                config[keyPath: path] = value
            }
        }
        if let value = take("log", logSettings) { config.log = value }
        if let value = take("security", security) { config.security = value }
        if let value = take("insecure", { v throws(ConfigurationError) in try boolean(v, "insecure") }) {
            config.insecure = value
        }
        if let value = take("http", HTTPAddress.decode) { config.http = value }
        if let value = take("httpHosts", HTTPAddress.decodeHosts) { config.httpHosts = value }
        if let node = tree["vivaCloud"] { config.vivaCloud = vivaCloud(node, problems: &problems) }
        let defaults = config.terminal
        if let value = take(
            "terminal",
            { v throws(ConfigurationError) in
                try terminal(v, path: "terminal", base: defaults)
            })
        {
            config.terminal = value
        }
        var lanePaths: [String] = []
        if let value = tree["lanes"] {
            (config.lanes, lanePaths) = lanes(value, defaults: config.terminal, problems: &problems)
        }
        problems.record(endpointClashes(config, lanePaths: lanePaths))
        if tree["leaseMs"] != nil, !config.journalIsShared {
            problems.record(
                ConfigurationError(
                    key: "leaseMs",
                    "is for a journal in PostgreSQL (journal: postgresql://…), which several bridges share; this "
                        + "journal is a file, which one bridge holds alone: remove leaseMs"))
        }
        if tree["security"] == nil || config.security != nil {
            // A security block that was refused has its own problem; what depends on it would only echo it.
            problems.record(exposureProblems(config, lanePaths: lanePaths))
        }
        if config.vivaCloud == nil, let index = config.lanes.firstIndex(where: { $0.relayEndpoint == nil }) {
            problems.record(
                ConfigurationError(
                    key: "\(lanePaths[index]).cloud",
                    "drives lane \(config.lanes[index].id) through Viva's Cloud Terminal API, which needs vivaCloud: "
                        + "(the credentials of Viva's cloud, docs/CLOUD.md); add it, or give the lane a relay's endpoint"
                ))
        }
        if config.heartbeatIntervalMs >= config.heartbeatTimeoutMs {
            problems.record(
                ConfigurationError(
                    key: "heartbeatTimeoutMs",
                    "is \(config.heartbeatTimeoutMs) ms, not longer than heartbeatIntervalMs (\(config.heartbeatIntervalMs) ms): "
                        + "a relay drops a link it is not pinged on within the timeout; give three intervals or more"))
        }
        if config.lanes.isEmpty && !problems.all.contains(where: { $0.key.hasPrefix("lanes") }) {
            problems.record(ConfigurationError(key: "lanes", "must list at least one lane (id, endpoint, platform)"))
        }
        for (path, lane) in zip(lanePaths, config.lanes)
        where lane.relayEndpoint != nil && lane.terminal.merchantKey.allSatisfy(\.isWhitespace) {
            problems.record(
                ConfigurationError(
                    key: "\(path).merchantKey",
                    "is empty for lane \(lane.id): the terminal app refuses every request without one; set "
                        + "terminal.merchantKey (or \(EnvironmentSpelling.variable(["terminal", "merchantKey"]))) or the lane's "
                        + "own merchantKey"))
        }
        return config
    }

    /// The whole-number keys: the range each accepts and the setting it sets.
    static var integerKeys: [(String, ClosedRange<Int>, WritableKeyPath<BridgeConfiguration, Int>)] {
        [
            ("maxCommandBytes", 256...16_777_216, \.maxCommandBytes), ("abortGraceMs", 0...60_000, \.abortGraceMs),
            ("shutdownGraceMs", 0...600_000, \.shutdownGraceMs),
            ("heartbeatIntervalMs", 100...60_000, \.heartbeatIntervalKey),
            ("heartbeatTimeoutMs", 100...300_000, \.heartbeatTimeoutKey),
            ("heartbeatEventMs", 1000...60_000, \.heartbeatEventMs), ("batchExpiryHours", 1...720, \.batchExpiryHours),
            ("journalRetentionDays", 1...36_500, \.retentionDaysKey), ("leaseMs", 1000...600_000, \.leaseMs),
        ]
    }

    /// `journalRetentionDays` as the whole-number table reads and sets it: 0 stands for off (the key
    /// absent), a value the key itself never takes.
    var retentionDaysKey: Int {
        get { journalRetentionDays ?? 0 }
        set { journalRetentionDays = newValue }
    }

    /// The most characters an `instance` name may have.
    static let maxInstanceLength = 64

    /// A bridge's name: printable, without spaces, at most ``maxInstanceLength`` characters.
    private static func instance(_ tree: ConfigTree) throws(ConfigurationError) -> String {
        let text = try nonEmpty(tree, "instance")
        guard text.count <= maxInstanceLength else {
            throw ConfigurationError(
                key: "instance", "is \(text.count) characters long; give a name of at most \(maxInstanceLength)")
        }
        guard text.unicodeScalars.allSatisfy({ $0.value > 32 && $0.value != 127 }) else {
            throw ConfigurationError(
                key: "instance",
                "must be one word of printable characters (letters, digits, '-', '.'), not \"\(text)\"")
        }
        return text
    }

    private static func journalSync(_ value: ConfigTree) throws(ConfigurationError) -> JournalSync {
        let text = try scalar(value, "journalSync")
        guard let sync = JournalSync(rawValue: text) else {
            throw ConfigurationError(key: "journalSync", "must be normal or full, not \(text)")
        }
        return sync
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

    private static func lanes(
        _ tree: ConfigTree, defaults: TerminalSettings, problems: inout ConfigurationProblems
    ) -> (lanes: [LaneConfiguration], paths: [String]) {
        guard case .sequence(let items) = tree else {
            problems.record(ConfigurationError(key: "lanes", "must be a list of lanes"))
            return ([], [])
        }
        var lanes: [LaneConfiguration] = []
        var paths: [String] = []
        var ids: Set<String> = []
        for (index, item) in items.enumerated() {
            let path = "lanes[\(index)]"
            let lane = problems.attempt { () throws(ConfigurationError) in
                try self.lane(item, path: path, defaults: defaults, takenIds: ids)
            }
            if let lane {
                ids.insert(lane.id)
                lanes.append(lane)
                paths.append(path)
            }
        }
        return (lanes, paths)
    }

    /// One lane, or the first thing wrong with it.
    private static func lane(_ item: ConfigTree, path: String, defaults: TerminalSettings, takenIds: Set<String>)
        throws(ConfigurationError) -> LaneConfiguration
    {
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
        guard !takenIds.contains(id) else { throw ConfigurationError(key: "\(path).id", "duplicate lane id \(id)") }
        let transport = try transport(item, path: path)
        let platform: Platform
        if let platformNode = item["platform"] {
            let platformText = try scalar(platformNode, "\(path).platform")
            guard let named = Platform(rawValue: platformText) else {
                throw ConfigurationError(key: "\(path).platform", "must be ios or android, not \(platformText)")
            }
            platform = named
        } else if case .cloud = transport {
            // The platform decides only the inter-app URLs and callbacks, which a cloud lane never uses.
            platform = .android
        } else {
            throw ConfigurationError(key: "\(path).platform", "is required (ios or android)")
        }
        let settings = try terminal(item, path: path, base: defaults, ignoring: laneKeys)
        var lane = LaneConfiguration(id: id, transport: transport, platform: platform, terminal: settings)
        lane.relayPublicKey = try publicKey(item, inline: "relayPublicKey", file: "relayPublicKeyFile", path: path)
        if lane.relayPublicKey != nil, lane.relayEndpoint == nil {
            throw ConfigurationError(
                key: "\(path).relayPublicKey",
                "is for a relay lane; a cloud lane is reached over HTTPS to Viva: remove it")
        }
        return lane
    }

    /// A lane's `endpoint` (a relay) or `cloud: {terminalId, cashRegisterId}` (Viva's Cloud Terminal API): one,
    /// not both.
    private static func transport(_ item: ConfigTree, path: String) throws(ConfigurationError) -> LaneTransport {
        switch (item["endpoint"], item["cloud"]) {
        case (let endpointNode?, nil):
            return .relay(endpoint: try endpoint(endpointNode, "\(path).endpoint", allowWildcardPort: false))
        case (nil, let cloudNode?):
            guard case .mapping(let pairs) = cloudNode else {
                throw ConfigurationError(key: "\(path).cloud", "must be a mapping with terminalId and cashRegisterId")
            }
            try rejectUnknownKeys(pairs, allowed: ["terminalId", "cashRegisterId"], path: "\(path).cloud")
            guard let terminalNode = cloudNode["terminalId"] else {
                throw ConfigurationError(
                    key: "\(path).cloud.terminalId", "is required: the terminal id (TID) Viva shows for the device")
            }
            guard let registerNode = cloudNode["cashRegisterId"] else {
                throw ConfigurationError(
                    key: "\(path).cloud.cashRegisterId",
                    "is required: the till's id, which Viva's sessions are kept under")
            }
            return .cloud(
                CloudTerminal(
                    terminalId: try nonEmpty(terminalNode, "\(path).cloud.terminalId"),
                    cashRegisterId: try nonEmpty(registerNode, "\(path).cloud.cashRegisterId")))
        case (_?, _?):
            throw ConfigurationError(
                key: path,
                "has both endpoint (a relay on the device) and cloud (Viva's Cloud Terminal API): a lane is reached one "
                    + "way; keep one")
        case (nil, nil):
            throw ConfigurationError(
                key: "\(path).endpoint",
                "is required (a relay's ZeroMQ endpoint), or cloud: {terminalId, cashRegisterId} for a terminal driven "
                    + "through Viva's cloud")
        }
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
    /// `lanePaths` names each lane of `config` by its place in the file.
    private static func endpointClashes(_ config: BridgeConfiguration, lanePaths: [String]) -> [ConfigurationError] {
        var seen: [String: String] = [:]
        var clashes: [ConfigurationError] = []
        let own = config.ownEndpoints
        let lanes = zip(lanePaths, config.lanes).compactMap { path, lane in
            lane.relayEndpoint.map { ("\(path).endpoint", $0) }
        }
        for (key, endpoint) in own + lanes where !endpoint.hasSuffix(":*") {
            let canonical = endpoint.replacingOccurrences(of: "://localhost:", with: "://127.0.0.1:")
            if let other = seen[canonical] {
                clashes.append(ConfigurationError(key: key, "uses \(endpoint), which \(other) already uses"))
            } else {
                seen[canonical] = key
            }
        }
        return clashes
    }

    private static func rejectUnknownKeys(
        _ pairs: [(key: String, value: ConfigTree)], allowed: [String], path: String
    ) throws(ConfigurationError) {
        if let first = unknownKeys(pairs, allowed: allowed, path: path).first { throw first }
    }

    /// One problem for each key of `pairs` that `allowed` does not hold, with a suggestion when only
    /// the case is wrong.
    static func unknownKeys(
        _ pairs: [(key: String, value: ConfigTree)], allowed: [String], path: String
    ) -> [ConfigurationError] {
        pairs.filter { !allowed.contains($0.key) }.map { pair in
            let full = path.isEmpty ? pair.key : "\(path).\(pair.key)"
            let suggestion =
                allowed.first { $0.lowercased() == pair.key.lowercased() }.map { " (did you mean \($0)?)" } ?? ""
            return ConfigurationError(
                key: full, "unknown key\(suggestion); known keys: \(allowed.joined(separator: ", "))")
        }
    }
    static func scalar(_ tree: ConfigTree, _ key: String) throws(ConfigurationError) -> String {
        guard case .scalar(let text) = tree else { throw ConfigurationError(key: key, "must be a single value") }
        return text
    }

    /// A journal file's path, or a PostgreSQL URL of a well-formed address without a password (it is not
    /// connected to here).
    private static func journal(_ tree: ConfigTree) throws(ConfigurationError) -> String {
        let text = try nonEmpty(tree, "journal")
        if PostgresAddress.isURL(text) { _ = try PostgresAddress(url: text) }
        return text
    }

    static func nonEmpty(_ tree: ConfigTree, _ key: String) throws(ConfigurationError) -> String {
        let text = try scalar(tree, key)
        guard !text.isEmpty else { throw ConfigurationError(key: key, "must not be empty") }
        return text
    }

    static func integer(_ tree: ConfigTree, _ key: String, _ range: ClosedRange<Int>) throws(ConfigurationError)
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
