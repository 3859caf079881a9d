import Bridge
import Foundation
import Synchronization
import TerminalSimulator
import VivaCloud

/// Viva's simulated back office on loopback (``CloudBackOfficeServer``) with its ledger, and the
/// `vivaCloud` settings that point a bridge at it (secret files 0600 in a folder of its own).
final class SimulatedVivaCloud: Sendable {
    static let credentials = CloudCredentials(
        clientId: "pos-client", clientSecret: "CLIENT-SECRET-VALUE", merchantId: "merchant-1", apiKey: "API-KEY-VALUE")

    let ledger = CloudLedger()
    let backOffice: CloudBackOffice
    let server: CloudBackOfficeServer
    let folder: URL
    private let bound = Mutex("")

    /// `http://127.0.0.1:PORT`, once started.
    var baseURL: String { bound.withLock { $0 } }

    init() {
        backOffice = CloudBackOffice(credentials: Self.credentials, ledger: ledger)
        server = CloudBackOfficeServer(backOffice: backOffice)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-viva-\(UUID().uuidString)")
    }

    /// Starts serving and writes the secret files.
    func start() async throws {
        let port = try await server.start()
        bound.withLock { $0 = "http://127.0.0.1:\(port)" }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, value) in [("client-secret", Self.credentials.clientSecret), ("api-key", Self.credentials.apiKey)] {
            _ = FileManager.default.createFile(
                atPath: folder.appendingPathComponent(name).path, contents: Data(value.utf8),
                attributes: [.posixPermissions: 0o600])
        }
    }

    /// Stops serving and removes the secret files.
    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// `vivaCloud` for a bridge: this back office, unknowns looked up 1 s after they became unknown, then
    /// again every second (a test moves its manual clock).
    func configuration() throws -> VivaCloudConfiguration {
        var cloud = VivaCloudConfiguration(
            environment: nil, endpoints: VivaCloudEndpoints(accounts: baseURL, api: baseURL, legacy: baseURL),
            clientId: Self.credentials.clientId, clientSecretFile: folder.appendingPathComponent("client-secret").path,
            clientSecret: try Secret.read(
                file: folder.appendingPathComponent("client-secret").path, key: "clientSecretFile"),
            merchantId: Self.credentials.merchantId, apiKeyFile: folder.appendingPathComponent("api-key").path,
            apiKey: try Secret.read(file: folder.appendingPathComponent("api-key").path, key: "apiKeyFile"))
        cloud.resolveUnknownAfterMs = 1000
        cloud.lookupSchedule = VivaLookupSchedule(retryDelaysMs: [1000], thenEveryMs: 1000, giveUpAfterMs: 3_600_000)
        return cloud
    }

    /// How many day lists the back office answered.
    var dayLists: Int { backOffice.count(path: "/api/transactions") }
}
