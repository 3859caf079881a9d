import BridgeClient

/// Waits until the bridge (a child process) at `endpoint` shows each of `lanes` up, through its `lanes`
/// answer (``LanesUp``): a command sent to a lane before its relay answered hello ends `undeliverable`.
func awaitLanesUp(command endpoint: String, _ lanes: [String], timeout: Duration = .seconds(10)) throws -> Bool {
    try LanesUp.wait(endpoint: endpoint, lanes: lanes, timeout: timeout)
}
