import Foundation
import LoopbackPorts
import Synchronization

/// `vivabridge run` on its embedded default configuration, in a state folder of its own: commands and
/// events on `*` ports of loopback, the HTTP listener at `http` (VIVABRIDGE_HTTP), the simulated lanes on
/// ports below Linux's ephemeral range. ``remove()`` deletes the state folder.
struct DefaultRun {
    let child: ChildProcess
    let state: URL

    /// The environment that puts a tool on this run's state folder and ports (`journal reconcile`).
    let environment: [String: String]

    /// Starts the run and waits for its banner; a run whose simulated lanes found a port taken after all (by
    /// another process, between the check and the bind) is started again on other ports.
    init(http: String) throws {
        state = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-http-\(UUID().uuidString)")
        var attempts = 0
        while true {
            attempts += 1
            let environment = [
                "VIVABRIDGE_STATE": state.path, "VIVABRIDGE_SIMULATOR_BASEPORT": String(Self.freePortBase()),
            ]
            let child = try ChildProcess(
                ["run"],
                environment: environment.merging([
                    "VIVABRIDGE_COMMAND": "tcp://127.0.0.1:*", "VIVABRIDGE_EVENTS": "tcp://127.0.0.1:*",
                    "VIVABRIDGE_HTTP": http,
                ]) { $1 })
            let lanesTaken =
                child.waitForLine(containing: "commands (ROUTER):") == nil
                && child.waitForErrorLine(containing: "the simulated lanes could not start", timeout: 5) != nil
            if !lanesTaken || attempts == 3 {
                self.child = child
                self.environment = environment
                return
            }
        }
    }

    /// Four ports in a row (three lanes, Viva's simulated back office) below Linux's usual ephemeral range
    /// (32768 on) and away from the embedded default's 6001: none given to another run of this process, and
    /// each found free by binding it (a machine may hand out ports there too).
    static func freePortBase() -> Int {
        while true {
            let base = Int.random(in: 20_000...32_000)
            let mine = givenBases.withLock { given in
                guard !given.contains(where: { abs($0 - base) < portsPerRun }) else { return false }
                given.insert(base)
                return true
            }
            guard mine else { continue }
            let held = (0..<portsPerRun).compactMap { try? LoopbackPort(port: UInt16(base + $0)) }
            for port in held { port.release() }
            if held.count == portsPerRun { return base }
        }
    }

    private static let portsPerRun = 4
    private static let givenBases = Mutex<Set<Int>>([])

    func remove() { try? FileManager.default.removeItem(at: state) }
}
