import Foundation
import Testing
import VivaCloud

@Suite("Settings: secret files the owner's alone, plain http only to loopback addresses")
struct SettingsTests {
    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("viva-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("a secret file readable by others (0644) is refused, naming the file and the rule")
    func secretFileModeRefused() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let open = try CloudFixture.write("the-secret", named: "secret", in: folder, mode: 0o644)
        let key = try CloudFixture.write("the-key", named: "key", in: folder, mode: 0o600)
        let error = #expect(throws: VivaCloudError.self) {
            _ = try VivaCloudSettings(
                endpoints: VivaCloudEnvironment.demo.endpoints, clientId: "c", clientSecretFile: open, merchantId: "m",
                apiKeyFile: key)
        }
        #expect(error?.code == .secretFile)
        #expect(error?.message.contains("clientSecretFile") == true)
        #expect(error?.message.contains(open) == true)
        #expect(error?.message.contains("chmod 600") == true)
        #expect(error?.description.contains("the-secret") == false)
        // The same file made 0600 is accepted.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: open)
        let settings = try VivaCloudSettings(
            endpoints: VivaCloudEnvironment.demo.endpoints, clientId: "c", clientSecretFile: open, merchantId: "m",
            apiKeyFile: key)
        #expect(settings.clientSecret.value == "the-secret")
        #expect("\(settings.clientSecret)" == "<redacted>")
        #expect(!String(describing: settings).contains("the-secret"))
        #expect(!String(reflecting: settings).contains("the-key"))
    }

    @Test(
        "plain http to a host that is not a loopback address is refused",
        arguments: ["http://10.1.2.3:8080", "http://demo-api.vivapayments.com", "http://localhost:9000"])
    func insecureURLRefused(url: String) {
        let error = #expect(throws: VivaCloudError.self) {
            _ = try VivaCloudSettings(
                endpoints: VivaCloudEndpoints(accounts: "https://a.example", api: url, legacy: "https://l.example"),
                clientId: "c", clientSecret: Secret("s"), merchantId: "m", apiKey: Secret("k"))
        }
        #expect(error?.code == .insecureURL)
        #expect(error?.message.contains("apiURL") == true)
    }

    @Test(
        "https anywhere and plain http to loopback addresses are accepted",
        arguments: [
            "https://demo-api.vivapayments.com", "http://127.0.0.1:8080", "http://[::1]:8080", "http://127.3.2.1",
        ])
    func acceptedURLs(url: String) throws {
        _ = try VivaCloudSettings(
            endpoints: VivaCloudEndpoints(accounts: url, api: url, legacy: url), clientId: "c",
            clientSecret: Secret("s"), merchantId: "m", apiKey: Secret("k"))
    }

    @Test("each environment names Viva's three hosts")
    func environments() {
        #expect(VivaCloudEnvironment.demo.endpoints.accounts == "https://demo-accounts.vivapayments.com")
        #expect(VivaCloudEnvironment.demo.endpoints.api == "https://demo-api.vivapayments.com")
        #expect(VivaCloudEnvironment.demo.endpoints.legacy == "https://demo.vivapayments.com")
        #expect(VivaCloudEnvironment.live.endpoints.accounts == "https://accounts.vivapayments.com")
        #expect(VivaCloudEnvironment.live.endpoints.api == "https://api.vivapayments.com")
        #expect(VivaCloudEnvironment.live.endpoints.legacy == "https://www.vivapayments.com")
    }
}
