import Bridge
import Foundation
import Testing

/// `heartbeatIntervalMs` and `heartbeatTimeoutMs` (docs/CONFIG.md): absent, the interval follows the relay
/// lanes (5 s up to 3,333 lanes, then one ping every 1.5 ms across the bridge) and the timeout is three intervals.
@Suite("Heartbeat configuration: the default follows the lanes")
struct HeartbeatConfigurationTests {
    private func yaml(relayLanes: Int, keys: String = "") -> String {
        var text = keys + "terminal: {merchantKey: K}\nlanes:\n"
        for index in 0..<relayLanes {
            text += "  - {id: lane-\(index), endpoint: \"tcp://127.0.0.1:\(10_000 + index)\", platform: ios}\n"
        }
        return text
    }

    @Test("absent: 5 s and 15 s for a store's lanes, longer past 3,333 relay lanes, at most a minute")
    func followsTheLanes() throws {
        let store = try BridgeConfiguration.load(yaml: yaml(relayLanes: 8))
        #expect(store.heartbeatIntervalMs == 5000)
        #expect(store.heartbeatTimeoutMs == 15000)
        let chain = try BridgeConfiguration.load(yaml: yaml(relayLanes: 10_000))
        #expect(chain.heartbeatIntervalMs == 15000)
        #expect(chain.heartbeatTimeoutMs == 45000)
        #expect(BridgeConfiguration.defaultHeartbeatInterval(relayLanes: 3333) == 5000)
        #expect(BridgeConfiguration.defaultHeartbeatInterval(relayLanes: 3334) == 6000)
        #expect(BridgeConfiguration.defaultHeartbeatInterval(relayLanes: 1_000_000) == 60000)
    }

    @Test("cloud lanes have no terminal link, so they do not lengthen the heartbeat")
    func cloudLanesDoNotCount() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-hb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["client-secret", "api-key"] {
            _ = FileManager.default.createFile(
                atPath: folder.appendingPathComponent(name).path, contents: Data("VALUE".utf8),
                attributes: [.posixPermissions: 0o600])
        }
        var text =
            "vivaCloud: {environment: demo, clientId: pos, clientSecretFile: \(folder.path)/client-secret, "
            + "merchantId: m, apiKeyFile: \(folder.path)/api-key}\nlanes:\n"
        for index in 0..<4000 {
            text += "  - {id: cloud-\(index), cloud: {terminalId: \"\(16_000_000 + index)\", cashRegisterId: till}}\n"
        }
        let cloud = try BridgeConfiguration.load(yaml: text)
        #expect(cloud.lanes.count == 4000)
        #expect(cloud.heartbeatIntervalMs == 5000)
        let relay = try BridgeConfiguration.load(yaml: yaml(relayLanes: 4000))
        #expect(relay.heartbeatIntervalMs == 6000)
    }

    @Test("a key given is kept whatever the lanes; a timeout not given is three of the given interval")
    func keysWin() throws {
        let interval = try BridgeConfiguration.load(yaml: yaml(relayLanes: 10_000, keys: "heartbeatIntervalMs: 2000\n"))
        #expect(interval.heartbeatIntervalMs == 2000)
        #expect(interval.heartbeatTimeoutMs == 6000)
        let both = try BridgeConfiguration.load(
            yaml: yaml(relayLanes: 8, keys: "heartbeatIntervalMs: 2000\nheartbeatTimeoutMs: 5000\n"))
        #expect(both.heartbeatIntervalMs == 2000)
        #expect(both.heartbeatTimeoutMs == 5000)
    }

    @Test("a timeout given alone bounds the interval to a third of it; an interval as long as the timeout is refused")
    func timeoutBoundsTheInterval() throws {
        let timeoutOnly = try BridgeConfiguration.load(
            yaml: yaml(relayLanes: 10_000, keys: "heartbeatTimeoutMs: 15000\n"))
        #expect(timeoutOnly.heartbeatIntervalMs == 5000)
        #expect(timeoutOnly.heartbeatTimeoutMs == 15000)
        let refused = BridgeConfiguration.check(
            yaml: yaml(relayLanes: 2, keys: "heartbeatIntervalMs: 20000\nheartbeatTimeoutMs: 20000\n")
        ).problems.all.map(\.description)
        #expect(refused.count == 1 && refused[0].hasPrefix("heartbeatTimeoutMs: is 20000 ms, not longer"), "\(refused)")
    }

    @Test("a reload that only adds lanes changes no heartbeat key; a changed key waits for a restart")
    func reload() throws {
        let running = try BridgeConfiguration.load(yaml: yaml(relayLanes: 8))
        let grown = try BridgeConfiguration.load(yaml: yaml(relayLanes: 5000))
        #expect(grown.heartbeatIntervalMs == 8000)
        #expect(running.restartDifferences(to: grown) == [])
        let keyed = try BridgeConfiguration.load(yaml: yaml(relayLanes: 8, keys: "heartbeatIntervalMs: 5000\n"))
        #expect(running.restartDifferences(to: keyed) == ["heartbeatIntervalMs"])
    }
}
