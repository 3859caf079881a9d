import BridgeCore
import BridgeJournal
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
        "vivaCloud",
    ]
    /// The keys of `log:`.
    static let logKeys: [String] = ["level", "format"]
    /// The keys of `terminal:` and of each lane's own terminal settings.
    static let terminalKeys: [String] = ["merchantKey", "appId", "callback", "timeoutMs"]
    /// The keys a lane may hold besides the terminal keys.
    static let laneKeys: [String] = ["id", "endpoint", "cloud", "platform", "relayPublicKey", "relayPublicKeyFile"]

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
    /// Every key may come from the environment, spelt as ``EnvironmentSpelling`` says
    /// (`VIVABRIDGE_TERMINAL_MERCHANT_KEY`, `VIVABRIDGE_LANES_0_ENDPOINT`).
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
        let prefix = EnvironmentSpelling.prefix
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) where name.hasPrefix(prefix) {
            guard !toolEnvironmentNames.contains(name) else { continue }
            // A name that is no key belongs to someone else (a client, a deployment tool): ignored here;
            // `environmentWarnings` names the ones that look like a misspelt key, and the old spellings.
            guard let path = environmentKey(name.dropFirst(prefix.count))?.path else { continue }
            if !tree.set(path[...], to: value) {
                problems.record(
                    ConfigurationError(key: name, "names \(path.joined(separator: ".")), which the file does not have"))
            }
        }
    }
}
