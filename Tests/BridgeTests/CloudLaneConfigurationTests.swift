import Bridge
import Foundation
import Testing

/// A lane's `cloud:` in configuration (docs/CONFIG.md): a lane is reached by a relay's endpoint or through
/// Viva's cloud, one way, and a cloud lane needs `vivaCloud:`.
@Suite("Cloud lanes in configuration")
struct CloudLaneConfigurationTests {
    private let folder: URL
    private let cloud: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-cloudlane-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["client-secret", "api-key"] {
            _ = FileManager.default.createFile(
                atPath: folder.appendingPathComponent(name).path, contents: Data("VALUE".utf8),
                attributes: [.posixPermissions: 0o600])
        }
        cloud =
            "vivaCloud:\n  environment: demo\n  clientId: pos\n  clientSecretFile: \(folder.path)/client-secret\n"
            + "  merchantId: m\n  apiKeyFile: \(folder.path)/api-key\n"
    }

    private func check(_ lanes: String, cloud: Bool = true) -> (BridgeConfiguration, [String]) {
        let (configuration, problems) = BridgeConfiguration.check(
            yaml: "terminal: {merchantKey: K}\nlanes:\n" + lanes + (cloud ? self.cloud : ""))
        return (configuration, problems.all.map(\.description))
    }

    @Test("a cloud lane needs no endpoint, platform or merchant key; its transport names its terminal")
    func cloudLane() throws {
        let (configuration, problems) = BridgeConfiguration.check(
            yaml: "lanes:\n  - id: counter\n    cloud: {terminalId: \"16000001\", cashRegisterId: till-2}\n" + cloud)
        #expect(problems.all.isEmpty, "\(problems.all)")
        let lane = try #require(configuration.lanes.first)
        #expect(lane.transport == .cloud(CloudTerminal(terminalId: "16000001", cashRegisterId: "till-2")))
        #expect(lane.relayEndpoint == nil)
        #expect(lane.endpoint == "viva-cloud:16000001")
        #expect(lane.transport.name == "cloud")
    }

    @Test("relay and cloud lanes side by side; each keeps its own way")
    func mixed() throws {
        let (configuration, problems) = check(
            "  - {id: a, endpoint: \"tcp://127.0.0.1:6001\", platform: ios}\n"
                + "  - {id: b, cloud: {terminalId: T, cashRegisterId: R}, platform: ios}\n")
        #expect(problems.isEmpty, "\(problems)")
        #expect(configuration.lanes.map(\.transport.name) == ["relay", "cloud"])
        #expect(configuration.lanes[1].platform == .ios)
    }

    @Test("what is refused, each at its key")
    func refusals() {
        let both = check(
            "  - {id: a, endpoint: \"tcp://127.0.0.1:6001\", platform: ios, cloud: {terminalId: T, cashRegisterId: R}}\n"
        ).1
        #expect(both.contains { $0.contains("lanes[0]") && $0.contains("reached one way") }, "\(both)")
        let neither = check("  - {id: a, platform: ios}\n").1
        #expect(neither.contains { $0.contains("lanes[0].endpoint") && $0.contains("cloud") }, "\(neither)")
        let noTerminal = check("  - {id: a, cloud: {cashRegisterId: R}}\n").1
        #expect(noTerminal.contains { $0.contains("lanes[0].cloud.terminalId") }, "\(noTerminal)")
        let noRegister = check("  - {id: a, cloud: {terminalId: T}}\n").1
        #expect(noRegister.contains { $0.contains("lanes[0].cloud.cashRegisterId") }, "\(noRegister)")
        let typo = check("  - {id: a, cloud: {terminalId: T, cashRegisterId: R, tid: X}}\n").1
        #expect(typo.contains { $0.contains("lanes[0].cloud") && $0.contains("tid") }, "\(typo)")
        let withoutViva = check("  - {id: a, cloud: {terminalId: T, cashRegisterId: R}}\n", cloud: false).1
        #expect(withoutViva.contains { $0.contains("lanes[0].cloud") && $0.contains("vivaCloud") }, "\(withoutViva)")
        let relayWithoutPlatform = check("  - {id: a, endpoint: \"tcp://127.0.0.1:6001\"}\n").1
        #expect(relayWithoutPlatform.contains { $0.contains("lanes[0].platform") }, "\(relayWithoutPlatform)")
    }

    @Test("vivaCloud.requestsPerSecond bounds the client's requests (bursts of twice it); 0 is refused")
    func requestRate() throws {
        let lane = "  - {id: a, cloud: {terminalId: T, cashRegisterId: R}}\n"
        let (configuration, problems) = BridgeConfiguration.check(
            yaml: "lanes:\n" + lane + cloud + "  requestsPerSecond: 40\n")
        #expect(problems.all.isEmpty, "\(problems.all)")
        let settings = try #require(try configuration.vivaCloud?.clientSettings())
        #expect(settings.requestsPerSecond == 40 && settings.burst == 80)
        let defaults = try #require(try check(lane).0.vivaCloud?.clientSettings())
        #expect(defaults.requestsPerSecond == 5 && defaults.burst == 10)
        let zero = BridgeConfiguration.check(yaml: "lanes:\n" + lane + cloud + "  requestsPerSecond: 0\n")
        #expect(zero.problems.all.contains { $0.description.contains("vivaCloud.requestsPerSecond") })
    }
}
