import Bridge
import Foundation
import Testing
import VivaCloud

/// `vivaCloud:` in configuration (docs/CONFIG.md, docs/CLOUD.md): what `check` and `run` accept and refuse,
/// with no network call.
@Suite("Viva's cloud configuration: environment or URLs, secret files, limits")
struct VivaCloudConfigurationTests {
    private let folder: URL
    private let secretFile: String
    private let apiKeyFile: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-cloudcfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        secretFile = folder.appendingPathComponent("client-secret").path
        apiKeyFile = folder.appendingPathComponent("api-key").path
        _ = FileManager.default.createFile(
            atPath: secretFile, contents: Data("CLIENT-SECRET-VALUE\n".utf8), attributes: [.posixPermissions: 0o600])
        _ = FileManager.default.createFile(
            atPath: apiKeyFile, contents: Data("API-KEY-VALUE".utf8), attributes: [.posixPermissions: 0o600])
    }

    private static let lanes =
        "lanes:\n  - {id: lane-1, endpoint: \"tcp://127.0.0.1:6001\", platform: ios}\nterminal: {merchantKey: K}\n"

    private func yaml(_ cloud: String) -> String {
        Self.lanes + "vivaCloud:\n" + cloud
    }

    private func credentials(secret: String? = nil) -> String {
        "  clientId: pos-client\n  clientSecretFile: \(secret ?? secretFile)\n  merchantId: merchant-1\n  apiKeyFile: \(apiKeyFile)\n"
    }

    private func problems(_ yaml: String) -> [String] {
        BridgeConfiguration.check(yaml: yaml).problems.all.map(\.description)
    }

    @Test("an environment gives Viva's three URLs; the secrets are read from their files and never printed")
    func environment() throws {
        let (configuration, problems) = BridgeConfiguration.check(
            yaml: yaml("  environment: demo\n  resolveUnknownAfterMs: 5000\n" + credentials()))
        #expect(problems.all.isEmpty, "\(problems.all)")
        let cloud = try #require(configuration.vivaCloud)
        #expect(cloud.environment == .demo)
        #expect(cloud.endpoints == VivaCloudEnvironment.demo.endpoints)
        #expect(cloud.clientSecret.value == "CLIENT-SECRET-VALUE")
        #expect(cloud.apiKey.value == "API-KEY-VALUE")
        #expect(cloud.resolveUnknownAfterMs == 5000)
        #expect(cloud.pollMs == VivaCloudConfiguration.defaultPollMs)
        let printed = "\(cloud) \(cloud.summary)"
        #expect(!printed.contains("CLIENT-SECRET-VALUE") && !printed.contains("API-KEY-VALUE"))
    }

    @Test("without vivaCloud the configuration has none: nothing calls Viva")
    func absent() {
        let (configuration, problems) = BridgeConfiguration.check(yaml: Self.lanes)
        #expect(problems.all.isEmpty)
        #expect(configuration.vivaCloud == nil)
    }

    @Test("three URLs: https, or plain http to a loopback address only")
    func urls() throws {
        let loopback = yaml(
            "  accountsURL: http://127.0.0.1:9000\n  apiURL: http://127.0.0.1:9000/\n  legacyURL: http://[::1]:9000\n"
                + credentials())
        let (configuration, found) = BridgeConfiguration.check(yaml: loopback)
        #expect(found.all.isEmpty, "\(found.all)")
        #expect(configuration.vivaCloud?.endpoints.api == "http://127.0.0.1:9000")
        #expect(configuration.vivaCloud?.environment == nil)
        let plain = problems(
            yaml(
                "  accountsURL: https://accounts.example\n  apiURL: http://api.example\n  legacyURL: https://www.example\n"
                    + credentials()))
        #expect(plain.count == 1)
        #expect(
            plain.first?.hasPrefix(
                "vivaCloud.apiURL: http://api.example is plain http to a host that is not a loopback address") == true)
        #expect(
            problems(yaml("  apiURL: https://api.example\n" + credentials()))
                == [
                    "vivaCloud.accountsURL: is required with apiURL: give all three URLs, or environment",
                    "vivaCloud.legacyURL: is required with apiURL: give all three URLs, or environment",
                ])
        #expect(
            problems(yaml("  environment: live\n  apiURL: https://api.example\n" + credentials()))
                == ["vivaCloud.apiURL: give environment or the three URLs (accountsURL, apiURL, legacyURL), not both"])
        #expect(
            problems(yaml("  environment: staging\n" + credentials())) == [
                "vivaCloud.environment: must be demo or live, not staging"
            ])
    }

    @Test("a secret file group or others can read is refused, naming the key, the file and the fix")
    func secretFileMode() throws {
        let open = folder.appendingPathComponent("open-secret").path
        _ = FileManager.default.createFile(
            atPath: open, contents: Data("S".utf8), attributes: [.posixPermissions: 0o644])
        let found = problems(yaml("  environment: demo\n" + credentials(secret: open)))
        #expect(
            found == [
                "vivaCloud.clientSecretFile: \(open) is readable by group or others (mode 0644); make it the owner's alone: chmod 600 \(open)"
            ])
        let missing = problems(
            yaml("  environment: demo\n" + credentials(secret: folder.appendingPathComponent("none").path)))
        #expect(missing.first?.hasPrefix("vivaCloud.clientSecretFile: cannot read") == true)
    }

    @Test("every key is checked: required ones, the limits, keys that do not exist")
    func keysAndLimits() {
        let found = problems(
            yaml("  environment: demo\n  resolveUnknownAfterMs: 999\n  pollMs: 100\n  color: red\n" + credentials()))
        #expect(found.count == 3)
        #expect(found.first?.hasPrefix("vivaCloud.color: unknown key") == true)
        #expect(
            Array(found.dropFirst()) == [
                "vivaCloud.resolveUnknownAfterMs: must be between 1000 and 604800000, not 999",
                "vivaCloud.pollMs: must be between 200 and 60000, not 100",
            ])
        #expect(
            problems(yaml("  environment: demo\n"))
                == [
                    "vivaCloud.clientId: is required", "vivaCloud.merchantId: is required",
                    "vivaCloud.clientSecretFile: is required", "vivaCloud.apiKeyFile: is required",
                ])
        #expect(problems(Self.lanes + "vivaCloud: on\n").first?.hasPrefix("vivaCloud: must be a mapping") == true)
    }

    @Test("a changed vivaCloud is taken at a restart, not a reload")
    func restartDifference() {
        let first = BridgeConfiguration.check(yaml: yaml("  environment: demo\n" + credentials())).configuration
        let second = BridgeConfiguration.check(yaml: yaml("  environment: live\n" + credentials())).configuration
        #expect(first.restartDifferences(to: second) == ["vivaCloud"])
        #expect(first.restartDifferences(to: first).isEmpty)
    }
}
