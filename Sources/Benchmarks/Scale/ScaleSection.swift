import BridgeClient
import Foundation
import TerminalSimulator
import ZeroMQ

/// Section 5: a bridge process with many idle lanes (CPU and memory), and its memory as sales go by.
struct ScaleSection {
    var binary: String
    var idleLanes: Int
    var idleSeconds: Double
    var lanes: Int
    var clients: Int
    var window: Int
    var salesForMemory: Int
    var encoding: CallbackEncoding
    var folder: String
    var log: (String) -> Void

    func run() -> SectionResult {
        var out = SectionResult()
        out.notes.append(
            "scale: the bridge runs as a child process (`\(binary) run --config`), the simulator in this one")
        idle(&out)
        memory(&out)
        return out
    }

    /// CPU share of one core and RSS of an idle bridge with `lanes` connected lanes.
    private func idleFigures(lanes: Int) throws -> (cpu: Double, rss: Int) {
        let context = try Context(ioThreads: 1, maxSockets: Int32(lanes * 2 + 64))
        defer { context.terminate() }
        let simulator = Simulator(
            lanes: (0..<lanes).map { SimulatedLane(id: Wire.laneId($0), platform: .ios) }, context: context,
            historyLimit: 4)
        defer { simulator.stop() }
        let endpoints = try simulator.start()
        let child = try ChildBridge(
            binary: binary, relays: (0..<lanes).map { endpoints[Wire.laneId($0)]! }, folder: folder)
        defer { child.stop() }
        for lane in 0..<lanes where !simulator.waitForHello(lane: Wire.laneId(lane), timeout: .seconds(60)) {
            throw BenchError("lane \(Wire.laneId(lane)) never connected; bridge says: \(child.errors.suffix(1000))")
        }
        Thread.sleep(forTimeInterval: min(2, idleSeconds))  // let connection set-up settle
        let before = ProcessStats.threadCPU(pid: child.pid)
        let start = Monotonic.now()
        Thread.sleep(forTimeInterval: idleSeconds)
        let after = ProcessStats.threadCPU(pid: child.pid)
        let elapsed = Monotonic.seconds(Monotonic.now() - start)
        guard !before.isEmpty, !after.isEmpty, child.process.isRunning,
            let rss = ProcessStats.residentBytes(pid: child.pid)
        else { throw BenchError("the bridge went away during the idle window") }
        return (ProcessStats.cpuSeconds(from: before, to: after) / elapsed, rss)
    }

    /// When the bridge cannot start with `idleLanes`, the idle figures are also measured with this many, so the
    /// table still shows how idle cost grows with lanes. (Until November 2026 the bridge sized its libzmq context
    /// for 2 sockets a lane where a lane takes 3, and failed to start from about 340 lanes.)
    static let fallbackIdleLanes = 300

    private func idle(_ out: inout SectionResult) {
        let one: (cpu: Double, rss: Int)
        do {
            log("  scale: idle bridge, 1 lane ...")
            one = try idleFigures(lanes: 1)
        } catch {
            out.failures.append("scale: idle bridge with 1 lane: \(error)")
            return
        }
        out.notes.append(
            "scale: idle window \(idleSeconds) s after all lanes said hello and 2 s to settle; CPU: the bridge "
                + "process's threads' time on a CPU (/proc/<pid>/task/*/schedstat), as a share of one core")
        func rows(_ lanes: Int, _ many: (cpu: Double, rss: Int), targets: Bool) {
            let count = Format.count(Double(lanes))
            out.rows.append(
                Row(
                    section: "scale", figure: "idle CPU, \(count) lanes connected (of 1 core)",
                    value: Format.percent(many.cpu), baseline: "\(Format.percent(one.cpu)) with 1 lane",
                    ratio: one.cpu > 0 ? many.cpu / one.cpu : nil, target: targets ? "< 1%" : "-",
                    verdict: targets ? (many.cpu < 0.01 ? .met : .notMet) : .none))
            out.rows.append(
                Row(
                    section: "scale", figure: "idle RSS, \(count) lanes connected",
                    value: Format.megabytes(many.rss), baseline: "\(Format.megabytes(one.rss)) with 1 lane",
                    ratio: Double(many.rss) / Double(one.rss), target: targets ? "< 150 MB" : "-",
                    verdict: targets ? (many.rss < 150 * 1_048_576 ? .met : .notMet) : .none))
        }
        do {
            log("  scale: idle bridge, \(idleLanes) lanes ...")
            rows(idleLanes, try idleFigures(lanes: idleLanes), targets: true)
        } catch {
            let count = Format.count(Double(idleLanes))
            out.failures.append("scale: idle bridge with \(count) lanes: \(error)")
            for figure in ["idle CPU", "idle RSS"] {
                out.rows.append(
                    Row(
                        section: "scale", figure: "\(figure), \(count) lanes connected",
                        value: "the bridge did not start", baseline: "-", ratio: nil,
                        target: figure == "idle CPU" ? "< 1%" : "< 150 MB", verdict: .notMet))
            }
            guard idleLanes > Self.fallbackIdleLanes else { return }
            do {
                log("  scale: idle bridge, \(Self.fallbackIdleLanes) lanes (it starts with these) ...")
                rows(Self.fallbackIdleLanes, try idleFigures(lanes: Self.fallbackIdleLanes), targets: false)
            } catch {
                out.failures.append("scale: idle bridge with \(Self.fallbackIdleLanes) lanes: \(error)")
            }
        }
    }

    private func memory(_ out: inout SectionResult) {
        do {
            log("  scale: memory over \(Format.count(Double(salesForMemory))) sales ...")
            let context = try Context(ioThreads: 1, maxSockets: Int32(lanes * 4 + 64))
            defer { context.terminate() }
            let simulator = Simulator(
                lanes: (0..<lanes).map {
                    SimulatedLane(id: Wire.laneId($0), platform: .ios, behaviour: LaneBehaviour(encoding: encoding))
                }, context: context, historyLimit: 16)
            defer { simulator.stop() }
            let endpoints = try simulator.start()
            let child = try ChildBridge(
                binary: binary, relays: (0..<lanes).map { endpoints[Wire.laneId($0)]! }, folder: folder)
            defer { child.stop() }
            for lane in 0..<lanes where !simulator.waitForHello(lane: Wire.laneId(lane), timeout: .seconds(60)) {
                throw BenchError("lane \(Wire.laneId(lane)) never connected")
            }
            let allLanes = (0..<lanes).map(Wire.laneId)
            guard try LanesUp.wait(endpoint: child.commandEndpoint, lanes: allLanes, timeout: .seconds(60)) else {
                throw BenchError("not every relay answered the bridge's hello")
            }
            guard let startRSS = ProcessStats.residentBytes(pid: child.pid) else { throw BenchError("no RSS") }

            let counter = SharedCounter()
            let clientCount = max(1, min(clients, lanes))
            let start = Monotonic.now()
            let workers = (0..<clientCount).map { client in
                LoadClient.start(
                    context: context,
                    plan: LoadPlan(
                        endpoint: child.commandEndpoint, client: client,
                        lanes: Array(stride(from: client, to: lanes, by: clientCount)), window: window,
                        ratePerSecond: nil, measureFromNs: 0, endNs: .max, counter: counter, stopAfter: salesForMemory,
                        recordLatency: false))
            }
            // RSS at every tenth of the way; the first tenth is the 100,000 of the full run.
            var checkpoints: [(sales: Int, rss: Int, seconds: Double, wal: Int)] = []
            var nextCheckpoint = 1
            while nextCheckpoint <= 10 {
                let done = counter.current
                if done >= salesForMemory * nextCheckpoint / 10 {
                    let rss = ProcessStats.residentBytes(pid: child.pid) ?? 0
                    checkpoints.append(
                        (done, rss, Monotonic.seconds(Monotonic.now() - start), child.journalFiles.wal))
                    nextCheckpoint += 1
                    continue
                }
                if !child.process.isRunning { throw BenchError("the bridge exited: \(child.errors.suffix(1000))") }
                Thread.sleep(forTimeInterval: 0.01)
            }
            let results = workers.map { $0.join() }
            if let error = results.compactMap(\.error).first { throw BenchError(error) }
            let nonSuccess = results.map(\.nonSuccess).reduce(0, +)
            let elapsed = checkpoints.last!.seconds
            let first = checkpoints.first!
            let last = checkpoints.last!
            out.rows.append(
                Row(
                    section: "scale", figure: "RSS after \(Format.count(Double(first.sales))) sales",
                    value: Format.megabytes(first.rss), baseline: "\(Format.megabytes(startRSS)) at start",
                    ratio: Double(first.rss) / Double(startRSS)))
            out.rows.append(
                Row(
                    section: "scale", figure: "RSS after \(Format.count(Double(last.sales))) sales",
                    value: Format.megabytes(last.rss),
                    baseline: "\(Format.megabytes(first.rss)) after \(Format.count(Double(first.sales)))",
                    ratio: Double(last.rss) / Double(first.rss), target: "<= 1.10x",
                    verdict: Double(last.rss) <= Double(first.rss) * 1.10 ? .met : .notMet))
            let files = child.journalFiles
            out.rows.append(
                Row(
                    section: "scale", figure: "journal WAL file after \(Format.count(Double(last.sales))) sales",
                    value: Format.megabytes(last.wal),
                    baseline: "\(Format.megabytes(first.wal)) after \(Format.count(Double(first.sales)))",
                    ratio: first.wal > 0 ? Double(last.wal) / Double(first.wal) : nil))
            out.notes.append(
                "scale: memory run, \(lanes) lanes, \(clientCount) clients x window \(window), journal normal: "
                    + "\(Format.count(Double(last.sales))) sales in \(String(format: "%.1f", elapsed)) s "
                    + "(\(Format.rate(Double(last.sales) / elapsed)) through the child bridge), \(nonSuccess) not success; "
                    + "RSS by tenths: " + checkpoints.map { Format.megabytes($0.rss) }.joined(separator: ", ")
                    + "; WAL by tenths: " + checkpoints.map { Format.megabytes($0.wal) }.joined(separator: ", ")
                    + "; journal files at the end: database \(Format.megabytes(files.database)), "
                    + "WAL \(Format.megabytes(files.wal)), shm \(Format.megabytes(files.shm))")
        } catch {
            out.failures.append("scale: memory: \(error)")
        }
    }
}
