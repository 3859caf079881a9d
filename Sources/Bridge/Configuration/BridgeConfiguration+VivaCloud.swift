import BridgeCore
import BridgeJournal
import VivaCloud

extension BridgeConfiguration {
    /// The keys of `vivaCloud:`.
    static let vivaCloudKeys: [String] = [
        "environment", "accountsURL", "apiURL", "legacyURL", "clientId", "clientSecretFile", "merchantId",
        "apiKeyFile", "resolveUnknownAfterMs", "pollMs", "requestsPerSecond",
    ]
    /// The three URL keys, which together stand for `environment`.
    private static let vivaCloudURLKeys = ["accountsURL", "apiURL", "legacyURL"]

    /// Reads `vivaCloud:` without a network call, recording every problem: the URLs by the client's own rule
    /// (``URLPolicy``), the secret files by its own (``Secret/read(file:key:)``: 0600 or refused). Cloud lanes
    /// (`cloud:` on a lane) need it.
    static func vivaCloud(_ tree: ConfigTree, problems: inout ConfigurationProblems) -> VivaCloudConfiguration? {
        let path = "vivaCloud"
        guard case .mapping(let pairs) = tree else {
            problems.record(
                ConfigurationError(
                    key: path,
                    "must be a mapping: environment (or the three URLs), clientId, clientSecretFile, "
                        + "merchantId, apiKeyFile"))
            return nil
        }
        let before = problems.all.count
        problems.record(unknownKeys(pairs, allowed: vivaCloudKeys, path: path))
        func text(_ key: String) -> String? {
            guard let node = tree[key] else {
                problems.record(ConfigurationError(key: "\(path).\(key)", "is required"))
                return nil
            }
            return problems.attempt { () throws(ConfigurationError) in try nonEmpty(node, "\(path).\(key)") }
        }
        let endpoints = vivaCloudEndpoints(tree, path: path, problems: &problems)
        let clientId = text("clientId")
        let merchantId = text("merchantId")
        let clientSecretFile = text("clientSecretFile")
        let apiKeyFile = text("apiKeyFile")
        var clientSecret: Secret?
        if let clientSecretFile {
            clientSecret = secret(file: clientSecretFile, key: "\(path).clientSecretFile", &problems)
        }
        var apiKey: Secret?
        if let apiKeyFile { apiKey = secret(file: apiKeyFile, key: "\(path).apiKeyFile", &problems) }
        var resolveAfter = VivaCloudConfiguration.defaultResolveUnknownAfterMs
        var pollMs = VivaCloudConfiguration.defaultPollMs
        var requestsPerSecond = VivaCloudConfiguration.defaultRequestsPerSecond
        for (key, range) in [
            ("resolveUnknownAfterMs", 1000...604_800_000), ("pollMs", 200...60_000), ("requestsPerSecond", 1...1000),
        ] {
            guard let node = tree[key] else { continue }
            guard
                let value = problems.attempt({ () throws(ConfigurationError) in
                    try integer(node, "\(path).\(key)", range)
                })
            else { continue }
            switch key {
            case "pollMs": pollMs = value
            case "requestsPerSecond": requestsPerSecond = value
            default: resolveAfter = value
            }
        }
        guard problems.all.count == before, let endpoints, let clientId, let merchantId, let clientSecretFile,
            let apiKeyFile, let clientSecret, let apiKey
        else { return nil }
        var cloud = VivaCloudConfiguration(
            environment: endpoints.environment, endpoints: endpoints.urls, clientId: clientId,
            clientSecretFile: clientSecretFile, clientSecret: clientSecret, merchantId: merchantId,
            apiKeyFile: apiKeyFile, apiKey: apiKey)
        cloud.resolveUnknownAfterMs = resolveAfter
        cloud.pollMs = pollMs
        cloud.requestsPerSecond = requestsPerSecond
        return cloud
    }

    /// `environment`, or all three URLs (each https, or http to a loopback address), not both.
    private static func vivaCloudEndpoints(_ tree: ConfigTree, path: String, problems: inout ConfigurationProblems)
        -> (environment: VivaCloudEnvironment?, urls: VivaCloudEndpoints)?
    {
        let given = vivaCloudURLKeys.filter { tree[$0] != nil }
        if let node = tree["environment"] {
            guard given.isEmpty else {
                problems.record(
                    ConfigurationError(
                        key: "\(path).\(given[0])",
                        "give environment or the three URLs (accountsURL, apiURL, legacyURL), not both"))
                return nil
            }
            let names = VivaCloudEnvironment.allCases.map(\.rawValue).joined(separator: " or ")
            guard
                let text = problems.attempt({ () throws(ConfigurationError) in try scalar(node, "\(path).environment") }
                )
            else { return nil }
            guard let environment = VivaCloudEnvironment(rawValue: text) else {
                problems.record(ConfigurationError(key: "\(path).environment", "must be \(names), not \(text)"))
                return nil
            }
            return (environment, environment.endpoints)
        }
        guard !given.isEmpty else {
            problems.record(
                ConfigurationError(
                    key: "\(path).environment",
                    "is required: demo or live (or the three URLs accountsURL, apiURL, legacyURL)"))
            return nil
        }
        var urls: [String] = []
        for key in vivaCloudURLKeys {
            let full = "\(path).\(key)"
            guard let node = tree[key] else {
                problems.record(
                    ConfigurationError(
                        key: full,
                        "is required with \(given.joined(separator: ", ")): give all three URLs, or environment"))
                continue
            }
            guard let url = problems.attempt({ () throws(ConfigurationError) in try nonEmpty(node, full) }) else {
                continue
            }
            do throws(VivaCloudError) {
                try URLPolicy.check(url, key: full)
                urls.append(url)
            } catch {
                problems.record(configurationError(error, key: full))
            }
        }
        guard urls.count == 3 else { return nil }
        return (nil, VivaCloudEndpoints(accounts: urls[0], api: urls[1], legacy: urls[2]))
    }

    /// The secret in `file`, by the client's rule; nil with the problem recorded.
    private static func secret(file: String, key: String, _ problems: inout ConfigurationProblems) -> Secret? {
        do throws(VivaCloudError) {
            return try Secret.read(file: file, key: key)
        } catch {
            problems.record(configurationError(error, key: key))
            return nil
        }
    }

    /// A client's error about setting `key` as a configuration error of that key (its message names the key
    /// first; the key is the error's own here).
    private static func configurationError(_ error: VivaCloudError, key: String) -> ConfigurationError {
        var message = error.message
        if message.hasPrefix("\(key): ") { message.removeFirst(key.count + 2) }
        return ConfigurationError(key: key, message)
    }
}
