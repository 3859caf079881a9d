import Foundation
import TerminalSimulator
import Testing

/// `send` and `watch` find the bridge from flags, `--config` or `VIVABRIDGE_COMMAND`/`VIVABRIDGE_EVENTS`.
@Suite("Client endpoints: flags, --config, environment")
struct ClientEndpointTests {
    @Test("send reaches the bridge through VIVABRIDGE_COMMAND, --config and --command-endpoint")
    func sendEndpoints() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane()])
        let viaEnvironment = try ChildProcess(
            ["send", "ping", "--wait-ms", "5000"], environment: ["VIVABRIDGE_COMMAND": bridge.bound.command])
        #expect(viaEnvironment.waitForExit(timeout: 20) == 0, "\(viaEnvironment.errorOutput)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-ep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("bridge.yaml")
        try """
        command: \(bridge.bound.command)
        events: \(bridge.bound.events)
        terminal: {merchantKey: K}
        lanes:
          - {id: lane-1, endpoint: "tcp://127.0.0.1:1", platform: ios}
        """.write(to: config, atomically: true, encoding: .utf8)
        let viaConfig = try ChildProcess(["send", "ping", "--config", config.path, "--wait-ms", "5000"])
        #expect(viaConfig.waitForExit(timeout: 20) == 0, "\(viaConfig.errorOutput)")
        let viaFlag = try ChildProcess(
            ["send", "ping", "--command-endpoint", bridge.bound.command, "--wait-ms", "5000"],
            environment: ["VIVABRIDGE_COMMAND": "tcp://127.0.0.1:1"])
        #expect(viaFlag.waitForExit(timeout: 20) == 0, "the flag must win over the environment")
    }

    @Test("a send with no reply tells the user to ask status before sending again (exit 5)")
    func noReplyHint() throws {
        let child = try ChildProcess(["send", "ping", "--command-endpoint", "tcp://127.0.0.1:1", "--wait-ms", "100"])
        #expect(child.waitForExit(timeout: 20) == 5)
        #expect(child.errorOutput.contains("send status --ref"))
    }
}
