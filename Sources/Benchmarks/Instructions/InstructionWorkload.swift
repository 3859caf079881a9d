import Bridge
import CCallgrind
import Foundation
import ZeroMQ

/// `--instruction-workload normal|full`: a fixed number of sales, one at a time, through an in-process bridge with
/// echo relays (journal SQLite `synchronous` normal or full), for `scripts/bench-instructions`, which counts the
/// instructions of each thread under callgrind. Only the counted sales are instrumented: callgrind runs with
/// `--instr-atstart=no` and the workload switches it on and off around them (``CCallgrind``; no-ops outside
/// valgrind). One sale in flight keeps every count the same from run to run save the bridge's timers'.
enum InstructionWorkload {
    /// What a run did.
    struct Outcome: Sendable {
        var approved = 0
        var sales = 0
        /// The reply to the first sale not approved, if any.
        var firstNotApproved: String?
        /// Whether the process ran under valgrind: the counted window was marked.
        var underValgrind = false
        /// Threads of the bench's own libzmq context (its client and echo relays), started before any other:
        /// under valgrind they are threads 2 and 3 (`callgrind.out.PID-02`, `-03`), the main thread 1.
        var benchContextFirst = false
    }

    static func run(sync: JournalSync, warmup: Int, counted: Int, folder: String) throws -> Outcome {
        var outcome = Outcome(underValgrind: vivabridge_running_on_valgrind() != 0)
        // The bench's context first, its threads started by a first socket: no other thread exists yet.
        let context = try Context(ioThreads: 1, maxSockets: 64)
        defer { context.terminate() }
        try Socket(context, .dealer).close()
        outcome.benchContextFirst = ThreadCPU.threadIds().count == 3
        let wire = try Wire.probe(encoding: .realistic)
        var teardown: [() -> Void] = []
        defer { for step in teardown.reversed() { step() } }
        let echo = try EchoRelay(context: context, lanes: 1, wire: wire)
        teardown.append { echo.stopAndJoin() }
        let (bound, bridge) = try TopologyRun.startBridge(
            lanes: echo.endpoints, sync: sync, folder: folder, teardown: &teardown)
        let endpoint = bound.command
        guard echo.readiness.waitForAll(timeoutSeconds: 30) else {
            throw BenchError("the echo relay never heard the bridge's hello")
        }
        // A lane takes a sale only once the relay's answer to hello has reached the bridge.
        guard bridge.awaitLanesUp(timeout: .seconds(60)) else {
            throw BenchError("the echo relay's answer to hello never reached the bridge")
        }
        let client = try Socket(context, .dealer)
        defer { client.close() }
        try client.setReceiveTimeout(30_000)
        try client.connect(endpoint)
        for sale in 0..<(warmup + counted) {
            if sale == warmup { vivabridge_callgrind_start() }
            let id = CommandId.text(client: 0, lane: 0, sequence: sale + 1)
            guard try client.send([Array(Wire.saleJSON(id: id, lane: 0).utf8)]) else {
                throw BenchError("sale \(sale + 1): the command socket would block")
            }
            guard let body = try client.receive()?.last else {
                throw BenchError("sale \(sale + 1): no reply within 30 s")
            }
            guard JSONScan.stringValue(JSONScan.idKey, in: body).map(Array.init) == Array(id.utf8) else {
                throw BenchError("sale \(sale + 1): a reply to another id: \(String(decoding: body, as: UTF8.self))")
            }
            outcome.sales += 1
            if JSONScan.find(JSONScan.success, in: body) != nil {
                outcome.approved += 1
            } else if outcome.firstNotApproved == nil {
                outcome.firstNotApproved = String(decoding: body, as: UTF8.self)
            }
        }
        vivabridge_callgrind_stop()
        return outcome
    }
}
