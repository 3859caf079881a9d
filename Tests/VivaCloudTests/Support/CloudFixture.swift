import Foundation
import Logging
import TerminalSimulator
import Testing
import VivaCloud

/// The simulated back office serving on loopback, secret files written 0600, and a client of it.
final class CloudFixture {
    static let credentials = CloudCredentials(
        clientId: "pos-client", clientSecret: "s3cr3t-client-VALUE", merchantId: "merchant-42",
        apiKey: "api-KEY-value-777")

    let ledger: CloudLedger
    let backOffice: CloudBackOffice
    let server: CloudBackOfficeServer
    let baseURL: String
    let folder: URL
    let logs = LogCapture()
    private(set) var settings: VivaCloudSettings
    private(set) var client: VivaCloudClient

    /// Starts the back office with `faults` on `clock` (the ledger's and the back office's: token expiry
    /// and late transactions follow it); `adjust` changes the client's settings before it is made.
    init(
        faults: CloudFaults = CloudFaults(), clientSecret: String = CloudFixture.credentials.clientSecret,
        clock: any SimulatorClock = SystemSimulatorClock(), adjust: (inout VivaCloudSettings) -> Void = { _ in }
    ) async throws {
        ledger = CloudLedger(clock: clock)
        backOffice = CloudBackOffice(credentials: Self.credentials, ledger: ledger, faults: faults, clock: clock)
        server = CloudBackOfficeServer(backOffice: backOffice)
        let port = try await server.start()
        baseURL = "http://127.0.0.1:\(port)"
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("viva-cloud-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let secretFile = try Self.write(clientSecret, named: "client-secret", in: folder, mode: 0o600)
        let keyFile = try Self.write(Self.credentials.apiKey, named: "api-key", in: folder, mode: 0o600)
        var settings = try VivaCloudSettings(
            endpoints: VivaCloudEndpoints(accounts: baseURL, api: baseURL, legacy: baseURL),
            clientId: Self.credentials.clientId, clientSecretFile: secretFile, merchantId: Self.credentials.merchantId,
            apiKeyFile: keyFile)
        settings.initialBackoff = .milliseconds(10)
        settings.timeout = .seconds(5)
        adjust(&settings)
        self.settings = settings
        client = try VivaCloudClient(settings: settings, logger: logs.logger)
    }

    /// Shuts the client and the server down and removes the files.
    func finish() async {
        await client.shutdown()
        await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Writes `contents` to a file with `mode` and returns its path.
    static func write(_ contents: String, named name: String, in folder: URL, mode: Int) throws -> String {
        let path = folder.appendingPathComponent(name).path
        #expect(
            FileManager.default.createFile(
                atPath: path, contents: Data((contents + "\n").utf8), attributes: [.posixPermissions: mode]))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    /// Every secret and token the back office knows: none may appear in a log line or an error.
    var secrets: [String] {
        [Self.credentials.clientSecret, Self.credentials.apiKey] + backOffice.issuedTokens
    }
}

/// Runs `body` with a fixture, always finishing it.
func withCloud(
    faults: CloudFaults = CloudFaults(), clientSecret: String = CloudFixture.credentials.clientSecret,
    clock: any SimulatorClock = SystemSimulatorClock(), adjust: (inout VivaCloudSettings) -> Void = { _ in },
    _ body: (CloudFixture) async throws -> Void
) async throws {
    let fixture = try await CloudFixture(faults: faults, clientSecret: clientSecret, clock: clock, adjust: adjust)
    do {
        try await body(fixture)
    } catch {
        await fixture.finish()
        throw error
    }
    await fixture.finish()
}
