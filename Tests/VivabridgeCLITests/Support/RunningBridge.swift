import Foundation
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

/// A running `vivabridge run --config` against simulated lanes of the test's own, on ephemeral ports.
final class RunningBridge {
    let simulator: Simulator
    let folder: URL
    let child: ChildProcess
    let command: String
    /// The configuration file the bridge was started with (a test may rewrite it before a SIGHUP).
    let config: URL

    init(
        behaviour: LaneBehaviour = .zeroDelay, grace: Int = 30_000, extra: String = "",
        environment: [String: String] = [:]
    ) throws {
        simulator = Simulator(
            lanes: [
                SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)
            ])
        let endpoints = try simulator.start()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        config = folder.appendingPathComponent("bridge.yaml")
        try """
        command: tcp://127.0.0.1:*
        events: tcp://127.0.0.1:*
        journal: \(folder.path)/journal.sqlite
        shutdownGraceMs: \(grace)
        \(extra)
        terminal: {merchantKey: RUN-TEST-KEY}
        lanes:
          - {id: lane-1, endpoint: "\(endpoints["lane-1"]!)", platform: ios}
        """.write(to: config, atomically: true, encoding: .utf8)
        child = try ChildProcess(["run", "--config", config.path], environment: environment)
        let line = try #require(
            child.waitForLine(containing: "commands (ROUTER):"), "the bridge never said where it listens")
        command = String(line.split(separator: " ").last!)
        #expect(simulator.waitForHello(lane: "lane-1", timeout: .seconds(10)))
    }

    /// Sends one command from a fresh DEALER and returns the reply.
    func call(_ json: String) throws -> JSONObject? {
        let context = try Context()
        defer { context.terminate() }
        let socket = try Socket(context, .dealer)
        defer { socket.close() }
        try socket.setReceiveTimeout(10_000)
        try socket.connect(command)
        try socket.send([Array(json.utf8)])
        guard let frames = try socket.receive() else { return nil }
        return try JSONValue.parse(frames.last!).objectValue
    }

    deinit {
        simulator.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
