import BridgeClient
import Foundation
import InterApp
import LocalPostgres
import TerminalSimulator
import Testing
import ZeroMQ

/// One PostgreSQL journal for several `vivabridge run` processes (``StandbyBridge``), each on ephemeral ports
/// with its HTTP listener, all linked to the same simulated lane of the test's own.
final class SharedJournal {
    let simulator: Simulator
    let relay: String
    let journal: String
    let folder: URL
    private let leaseMs: Int

    /// A new database on `cluster`, and the simulated iOS lane `lane-1` behaving as `behaviour`.
    init(cluster: PostgresCluster, behaviour: LaneBehaviour = .zeroDelay, leaseMs: Int = 1000) throws {
        simulator = Simulator(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)
        ])
        relay = try #require(try simulator.start()["lane-1"])
        journal = try cluster.createDatabase()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-standby-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.leaseMs = leaseMs
    }

    /// Starts `vivabridge run` as `instance` on the journal, publishing on `events` (default: any free port);
    /// returns once its HTTP listener answers.
    func start(_ instance: String, events: String = "tcp://127.0.0.1:*") throws -> StandbyBridge {
        let config = folder.appendingPathComponent("\(instance).yaml")
        try """
        command: tcp://127.0.0.1:*
        events: \(events)
        journal: \(journal)
        instance: \(instance)
        leaseMs: \(leaseMs)
        shutdownGraceMs: 2000
        http: 127.0.0.1:0
        terminal: {merchantKey: STANDBY-KEY}
        lanes:
          - {id: lane-1, endpoint: "\(relay)", platform: ios}
        """.write(to: config, atomically: true, encoding: .utf8)
        let child = try ChildProcess(["run", "--config", config.path])
        let line = try #require(
            child.waitForLine(containing: "vivabridge http: "), "no HTTP listener: \(child.errorOutput)")
        let url = try #require(line.split(separator: " ").dropFirst(2).first.map(String.init))
        return StandbyBridge(instance: instance, child: child, http: url)
    }

    deinit {
        simulator.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A `vivabridge run` on a shared journal: its process, and its `/readyz`.
final class StandbyBridge {
    let instance: String
    let child: ChildProcess
    /// `http://127.0.0.1:PORT/`.
    let http: String

    init(instance: String, child: ChildProcess, http: String) {
        self.instance = instance
        self.child = child
        self.http = http
    }

    /// `/readyz` now: its status and JSON body.
    func readiness() throws -> (status: Int, body: JSONObject) {
        let answer = try HTTPRunTests.get(http + "readyz")
        return (answer.status, try #require(try JSONValue.parse(Array(answer.body.utf8)).objectValue))
    }

    /// Asks `/readyz` every 10 ms until its `role` is `role` (and, for `active`, it answers 200), at most
    /// `timeout` seconds; the body then, or nil.
    func waitForRole(_ role: String, timeout: TimeInterval = 15) throws -> JSONObject? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let answer = try? readiness(), answer.body["role"]?.stringValue == role,
                role != "active" || answer.status == 200
            {
                return answer.body
            }
            Thread.sleep(forTimeInterval: 0.01)
        } while Date() < deadline
        return nil
    }

    /// Follows its `/events` and returns the `data:` lines' JSON, in order, once `done` says so or `timeout`
    /// seconds passed (what came by then).
    func events(timeout: TimeInterval = 10, until done: ([String]) -> Bool) throws -> [String] {
        let port = try #require(URL(string: http)?.port, "no port in \(http)")
        let connection = try LoopbackHTTP(port: port, timeoutMs: 200)
        defer { connection.close() }
        try connection.get("/events", closing: false)
        return try connection.readEventData(timeoutMs: Int(timeout * 1000), until: done)
    }

    /// The command endpoint its banner names, once it serves.
    func commandEndpoint() throws -> String {
        let line = try #require(child.waitForLine(containing: "commands (ROUTER):"), "\(child.errorOutput)")
        return try #require(
            line.components(separatedBy: "commands (ROUTER):").last?.trimmingCharacters(in: .whitespaces))
    }
}

/// A DEALER that sends commands to one endpoint and reads their replies.
final class CommandClient {
    private let context: Context
    private let socket: Socket

    init(_ endpoint: String, timeoutMs: Int32 = 15_000) throws {
        context = try Context()
        socket = try Socket(context, .dealer)
        try socket.setReceiveTimeout(timeoutMs)
        try socket.connect(endpoint)
    }

    /// Sends `json`; its reply, or nil when none came in time.
    func call(_ json: String) throws -> JSONObject? {
        try send(json)
        return try receive()
    }

    func send(_ json: String) throws { try socket.send([Array(json.utf8)]) }

    func receive() throws -> JSONObject? {
        guard let frames = try socket.receive() else { return nil }
        return try JSONValue.parse(frames.last!).objectValue
    }

    deinit {
        socket.close()
        context.terminate()
    }
}
