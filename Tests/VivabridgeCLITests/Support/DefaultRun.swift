import Foundation

/// `vivabridge run` on its embedded default configuration, in a state folder of its own: commands and
/// events on `*` ports of loopback, the HTTP listener at `http` (VIVABRIDGE_HTTP), the simulated lanes on
/// ports below Linux's ephemeral range. ``remove()`` deletes the state folder.
struct DefaultRun {
    let child: ChildProcess
    let state: URL

    /// The environment that puts a tool on this run's state folder and ports (`journal reconcile`).
    let environment: [String: String]

    init(http: String) throws {
        state = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-http-\(UUID().uuidString)")
        environment = [
            "VIVABRIDGE_STATE": state.path, "VIVABRIDGE_SIMULATOR_BASEPORT": String(Self.freePortBase()),
        ]
        child = try ChildProcess(
            ["run"],
            environment: environment.merging([
                "VIVABRIDGE_COMMAND": "tcp://127.0.0.1:*", "VIVABRIDGE_EVENTS": "tcp://127.0.0.1:*",
                "VIVABRIDGE_HTTP": http,
            ]) { $1 })
    }

    /// Four ports in a row (three lanes, Viva's simulated back office) below Linux's ephemeral range (32768 on), where no `*` bind of a parallel
    /// test can land, and away from the embedded default's 6001.
    static func freePortBase() -> Int { Int.random(in: 20_000...32_000) }

    func remove() { try? FileManager.default.removeItem(at: state) }
}
