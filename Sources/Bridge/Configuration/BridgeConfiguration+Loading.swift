import Foundation
import InterApp

extension BridgeConfiguration {
    /// The keys a configuration file may hold at its top level.
    static let topLevelKeys: [String] = [
        "command", "commandPull", "events", "journal", "journalPasswordFile", "journalSync", "journalRetentionDays",
        "terminal", "lanes",
        "maxCommandBytes",
        "abortGraceMs", "shutdownGraceMs", "heartbeatIntervalMs", "heartbeatTimeoutMs", "heartbeatEventMs",
        "batchExpiryHours", "log", "security", "insecure", "http", "httpHosts", "instance", "leaseMs",
    ]
    /// The keys of `log:`.
    static let logKeys: [String] = ["level", "format"]
    /// The keys of `terminal:` and of each lane's own terminal settings.
    static let terminalKeys: [String] = ["merchantKey", "appId", "callback", "timeoutMs"]
    /// The keys a lane may hold besides the terminal keys.
    static let laneKeys: [String] = ["id", "endpoint", "platform", "relayPublicKey", "relayPublicKeyFile"]

    /// `VIVABRIDGE_` variables that belong to the tools, not to the configuration: never refused. (The
    /// journal's PostgreSQL password, `VIVABRIDGE_JOURNAL_PASSWORD`, is read but never a key.)
    public static let toolEnvironmentNames: Set<String> = [
        "VIVABRIDGE_STATE", "VIVABRIDGE_SIMULATOR_BASEPORT", "VIVABRIDGE_CONTRACT_RECORD",
        "VIVABRIDGE_JOURNAL_PASSWORD",
    ]

    /// Reads a configuration file, then applies `VIVABRIDGE_…` environment overrides; throws the first
    /// problem (``check(file:environment:)`` gives them all).
    public static func load(
        file path: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) -> BridgeConfiguration {
        let (configuration, problems) = check(file: path, environment: environment)
        if let first = problems.all.first { throw first }
        return configuration
    }

    /// Reads configuration from YAML text, then applies `VIVABRIDGE_…` environment overrides.
    ///
    /// Every key may come from the environment: `VIVABRIDGE_` + the key path in upper case with `_`
    /// between its parts (`VIVABRIDGE_TERMINAL_MERCHANTKEY`, `VIVABRIDGE_LANES_0_ENDPOINT`).
    public static func load(yaml: String, environment: [String: String] = [:]) throws(ConfigurationError)
        -> BridgeConfiguration
    {
        let (configuration, problems) = check(yaml: yaml, environment: environment)
        if let first = problems.all.first { throw first }
        return configuration
    }

    /// Reads a configuration file as ``load(file:environment:)`` does, but goes on past a problem: the
    /// configuration as far as it could be read, and every problem found. Accepted when `problems` is empty.
    public static func check(file path: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> (configuration: BridgeConfiguration, problems: ConfigurationProblems)
    {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            var problems = ConfigurationProblems()
            problems.record(
                ConfigurationError(
                    key: "", "cannot read the configuration file \(path): \(error.localizedDescription)"))
            return (BridgeConfiguration(), problems)
        }
        return check(yaml: text, environment: environment)
    }

    /// YAML text checked as ``check(file:environment:)`` does.
    public static func check(yaml: String, environment: [String: String] = [:])
        -> (configuration: BridgeConfiguration, problems: ConfigurationProblems)
    {
        var problems = ConfigurationProblems()
        guard var tree = problems.attempt({ () throws(ConfigurationError) in try ConfigTree.parse(yaml: yaml) }) else {
            return (BridgeConfiguration(), problems)
        }
        applyEnvironment(environment, to: &tree, problems: &problems)
        let configuration = decode(tree, problems: &problems)
        return (configuration, problems)
    }

    static func applyEnvironment(
        _ environment: [String: String], to tree: inout ConfigTree, problems: inout ConfigurationProblems
    ) {
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) where name.hasPrefix("VIVABRIDGE_") {
            guard !toolEnvironmentNames.contains(name) else { continue }
            let parts = name.dropFirst("VIVABRIDGE_".count).split(separator: "_").map(String.init)
            // A name that is no key belongs to someone else (a client, a deployment tool): ignored here;
            // `environmentWarnings` names the ones that look like a misspelt key.
            guard let path = resolve(parts) else { continue }
            if !tree.set(path[...], to: value) {
                problems.record(
                    ConfigurationError(key: name, "names \(path.joined(separator: ".")), which the file does not have"))
            }
        }
    }

    /// Maps upper-case environment parts to a key path, or nil when they name no key.
    static func resolve(_ parts: [String]) -> [String]? {
        func match(_ part: String, in keys: [String]) -> String? {
            keys.first { $0.uppercased() == part.uppercased() }
        }
        guard let first = parts.first, let top = match(first, in: topLevelKeys) else { return nil }
        let rest = Array(parts.dropFirst())
        switch top {
        case "terminal":
            guard let path = resolveTerminal(rest) else { return nil }
            return [top] + path
        case "log":
            guard rest.count == 1, let key = match(rest[0], in: logKeys) else { return nil }
            return [top, key]
        case "security":
            guard rest.count == 1, let key = match(rest[0], in: securityKeys.filter { $0 != "clients" }) else {
                return nil
            }
            return [top, key]
        case "lanes":
            guard rest.count >= 2, Int(rest[0]) != nil else { return nil }
            if rest.count == 2, let key = match(rest[1], in: laneKeys) { return [top, rest[0], key] }
            guard let path = resolveTerminal(Array(rest.dropFirst())) else { return nil }
            return [top, rest[0]] + path
        default:
            return rest.isEmpty ? [top] : nil
        }
    }

    private static func resolveTerminal(_ parts: [String]) -> [String]? {
        guard let first = parts.first,
            let key = terminalKeys.first(where: { $0.uppercased() == first.uppercased() })
        else { return nil }
        if key == "timeoutMs" {
            // An action's own `_` splits it into parts too: `..._TIMEOUTMS_PRE_AUTH` names `pre_auth`.
            let name = parts.dropFirst().joined(separator: "_").uppercased()
            guard parts.count >= 2,
                let action = TerminalAction.allCases.first(where: { $0.rawValue.uppercased() == name })
            else { return nil }
            return [key, action.rawValue]
        }
        return parts.count == 1 ? [key] : nil
    }
}
