import Foundation

/// `vivabridge run` on its embedded default configuration, in a state folder of its own: commands and
/// events on `*` ports of loopback, the HTTP listener at `http` (VIVABRIDGE_HTTP), the simulated lanes on
/// ports below Linux's ephemeral range. ``remove()`` deletes the state folder.
struct DefaultRun {
    let child: ChildProcess
    let state: URL

    init(http: String) throws {
        state = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-http-\(UUID().uuidString)")
        child = try ChildProcess(
            ["run"],
            environment: [
                "VIVABRIDGE_COMMAND": "tcp://127.0.0.1:*", "VIVABRIDGE_EVENTS": "tcp://127.0.0.1:*",
                "VIVABRIDGE_HTTP": http, "VIVABRIDGE_STATE": state.path,
                "VIVABRIDGE_SIMULATOR_BASEPORT": String(Self.freePortBase()),
            ])
    }

    /// Three ports in a row below Linux's ephemeral range (32768 on), where no `*` bind of a parallel
    /// test can land, and away from the embedded default's 6001.
    static func freePortBase() -> Int { Int.random(in: 20_000...32_000) }

    func remove() { try? FileManager.default.removeItem(at: state) }
}
