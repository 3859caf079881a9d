import BridgeCore
import BridgeJournal
import Foundation
import ZeroMQ

extension BridgeConfiguration {
    /// The keys of `security:`.
    static let securityKeys: [String] = ["secretKeyFile", "clients", "requireLaneKeys"]
    /// The keys of each client of `security.clients`.
    static let clientKeys: [String] = ["name", "publicKey", "publicKeyFile", "roles"]

    /// Reads `security:`, or names the first thing wrong with it.
    static func security(_ tree: ConfigTree) throws(ConfigurationError) -> SecuritySettings {
        guard case .mapping(let pairs) = tree else {
            throw ConfigurationError(key: "security", "must be a mapping with secretKeyFile and clients")
        }
        if let unknown = unknownKeys(pairs, allowed: securityKeys, path: "security").first { throw unknown }
        guard let fileNode = tree["secretKeyFile"] else {
            throw ConfigurationError(
                key: "security.secretKeyFile", "is required: the bridge's secret key (vivabridge keygen --out)")
        }
        let file = try nonEmpty(fileNode, "security.secretKeyFile")
        let secret = try secretKey(file: file, key: "security.secretKeyFile")
        let derived: String
        do {
            derived = try CurveKeyPair.publicKey(forSecretKey: secret)
        } catch {
            throw ConfigurationError(key: "security.secretKeyFile", "\(file) does not hold a CURVE secret key")
        }
        var clients: [SecuritySettings.Client] = []
        if let list = tree["clients"] {
            guard case .sequence(let items) = list else {
                throw ConfigurationError(key: "security.clients", "must be a list of clients (name, publicKey, roles)")
            }
            for (index, item) in items.enumerated() {
                let client = try self.client(item, path: "security.clients[\(index)]")
                // One name may hold two keys while its key is rotated; one key never belongs to two names.
                if let other = clients.first(where: { $0.publicKey == client.publicKey }) {
                    throw ConfigurationError(
                        key: "security.clients[\(index)].publicKey", "is already \(other.name)'s key")
                }
                clients.append(client)
            }
        }
        var requireLaneKeys = true
        if let node = tree["requireLaneKeys"] { requireLaneKeys = try boolean(node, "security.requireLaneKeys") }
        return SecuritySettings(
            secretKeyFile: file, secretKey: secret, publicKey: derived, clients: clients,
            requireLaneKeys: requireLaneKeys)
    }

    private static func client(_ item: ConfigTree, path: String) throws(ConfigurationError) -> SecuritySettings.Client {
        guard case .mapping(let pairs) = item else {
            throw ConfigurationError(key: path, "must be a mapping with name, publicKey and roles")
        }
        if let unknown = unknownKeys(pairs, allowed: clientKeys, path: path).first { throw unknown }
        guard let nameNode = item["name"] else { throw ConfigurationError(key: "\(path).name", "is required") }
        let name = try nonEmpty(nameNode, "\(path).name")
        guard name.utf8.count <= 64, name.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw ConfigurationError(key: "\(path).name", "must be 1 to 64 printable ASCII characters, no space")
        }
        guard
            let key = try publicKey(
                item, inline: "publicKey", file: "publicKeyFile", path: path)
        else {
            throw ConfigurationError(key: "\(path).publicKey", "is required (or publicKeyFile)")
        }
        guard case .sequence(let roleNodes)? = item["roles"], !roleNodes.isEmpty else {
            throw ConfigurationError(key: "\(path).roles", "must list commands, events, admin or several")
        }
        var roles: Set<SecuritySettings.Role> = []
        for node in roleNodes {
            let text = try scalar(node, "\(path).roles")
            guard let role = SecuritySettings.Role(rawValue: text) else {
                throw ConfigurationError(key: "\(path).roles", "must be commands, events or admin, not \(text)")
            }
            roles.insert(role)
        }
        return SecuritySettings.Client(name: name, publicKey: key, roles: roles)
    }

    /// A public key given inline (`inline`: 40 characters of Z85) or in a file (`file`); nil when neither.
    static func publicKey(_ item: ConfigTree, inline: String, file: String, path: String) throws(ConfigurationError)
        -> String?
    {
        if item[inline] != nil, item[file] != nil {
            throw ConfigurationError(key: "\(path).\(inline)", "give \(inline) or \(file), not both")
        }
        if let node = item[inline] {
            let text = try scalar(node, "\(path).\(inline)")
            guard Z85.isKey(text) else {
                throw ConfigurationError(key: "\(path).\(inline)", "must be a CURVE public key: 40 characters of Z85")
            }
            return text
        }
        guard let node = item[file] else { return nil }
        let name = try nonEmpty(node, "\(path).\(file)")
        guard let key = CurveKeyFile.read(name) else {
            throw ConfigurationError(
                key: "\(path).\(file)", "\(name) cannot be read or does not hold a CURVE public key (one Z85 line)")
        }
        return key
    }

    /// The Z85 secret key in `file`, which only its owner may read.
    private static func secretKey(file: String, key: String) throws(ConfigurationError) -> String {
        var info = stat()
        guard stat(file, &info) == 0 else {
            throw ConfigurationError(key: key, "cannot read \(file): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw ConfigurationError(
                key: key, "\(file) is readable by group or others; make it the owner's alone: chmod 600 \(file)")
        }
        guard let secret = CurveKeyFile.read(file) else {
            throw ConfigurationError(
                key: key, "\(file) cannot be read or does not hold a CURVE secret key (one Z85 line)")
        }
        return secret
    }

    static func boolean(_ tree: ConfigTree, _ key: String) throws(ConfigurationError) -> Bool {
        switch try scalar(tree, key) {
        case "true": return true
        case "false": return false
        case let other: throw ConfigurationError(key: key, "must be true or false, not \(other)")
        }
    }

    /// Plain sockets only where nobody else can reach them, unless `insecure`; with `security`, every
    /// lane pins its relay's key unless `requireLaneKeys` is false.
    static func exposureProblems(_ config: BridgeConfiguration, lanePaths: [String]) -> [ConfigurationError] {
        // HTTP has no CURVE: `security` does not cover it, so only `insecure` lets it off loopback.
        var problems: [ConfigurationError] = []
        if let http = config.http, !http.isLoopback, !config.insecure {
            problems.append(
                ConfigurationError(
                    key: "http",
                    "\(http) is reachable beyond this machine, and HTTP has no authentication (security: covers only "
                        + "the ZeroMQ sockets): bind it to 127.0.0.1 and put a proxy with TLS and a login in front, or "
                        + "set insecure: true"))
        }
        return problems + socketExposureProblems(config, lanePaths: lanePaths)
    }

    private static func socketExposureProblems(_ config: BridgeConfiguration, lanePaths: [String])
        -> [ConfigurationError]
    {
        if let security = config.security {
            guard security.requireLaneKeys else { return [] }
            return zip(lanePaths, config.lanes).compactMap { path, lane in
                lane.relayPublicKey == nil && lane.relayEndpoint != nil
                    ? ConfigurationError(
                        key: "\(path).relayPublicKey",
                        "is required with security (pin the relay's key), or set security.requireLaneKeys: false")
                    : nil
            }
        }
        let unpinnable = zip(lanePaths, config.lanes).compactMap { path, lane in
            lane.relayPublicKey == nil
                ? nil
                : ConfigurationError(
                    key: "\(path).relayPublicKey", "needs security (the bridge's own key to authenticate with)")
        }
        guard !config.insecure else { return unpinnable }
        return unpinnable
            + config.ownEndpoints.compactMap { key, endpoint in
                Loopback.isLoopback(endpoint: endpoint)
                    ? nil
                    : ConfigurationError(
                        key: key,
                        "\(endpoint) is reachable beyond this machine on a plain socket: add security (docs/SECURITY.md), "
                            + "bind to 127.0.0.1, or set insecure: true")
            }
    }

    /// The bridge's own sockets, by key: command, events, and commandPull when set.
    var ownEndpoints: [(String, String)] {
        [("command", command), ("events", events)] + (commandPull.map { [("commandPull", $0)] } ?? [])
    }
}
