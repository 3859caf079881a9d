import Foundation

/// CPU time of this process's threads grouped by thread name (`/proc/self/task/*/stat`), so a run can say
/// where its CPU went: the bridge's loop, the simulator, the load clients, libzmq's I/O threads.
enum ThreadCPU {
    static func snapshot() -> [String: Double] {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var byName: [String: Double] = [:]
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return [:] }
        for task in tasks {
            guard let text = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")")
            else { continue }
            let name = String(text[text.index(after: open)..<close])
            let fields = text[text.index(after: close)...].split(separator: " ")
            guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
            byName[group(name), default: 0] += (user + system) / ticks
        }
        return byName
    }

    /// Seconds of CPU per group between two snapshots.
    static func delta(_ before: [String: Double], _ after: [String: Double]) -> [String: Double] {
        var out: [String: Double] = [:]
        for (name, value) in after { out[name] = value - (before[name] ?? 0) }
        return out
    }

    /// CPU seconds the hypervisor took from this machine's virtual CPUs (`/proc/stat`'s steal), so a run
    /// can say how much other guests of the host took while it measured.
    static func stealSeconds() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
        else { return 0 }
        let values = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard values.count >= 8 else { return 0 }
        // user nice system idle iowait irq softirq steal
        return values[7] / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// CPU seconds every task of the machine ran (kernel threads too, and processes that ended since), from
    /// the scheduler's own count: the root control group's `cpuacct.usage` (cgroup v1, nanoseconds) or
    /// `usage_usec` of its `cpu.stat` (cgroup v2); nil when neither is readable. Not `/proc/stat`, which counts
    /// by timer tick: with sales paced on a timer the ticks fall on this process's wake-ups, and the machine's
    /// busy time less this process's showed 0.5-0.8 cores of "other processes" that no process had
    /// (docs/PERFORMANCE.md).
    static func machineTaskSeconds() -> Double? {
        if let text = try? String(contentsOfFile: "/sys/fs/cgroup/cpuacct/cpuacct.usage", encoding: .utf8),
            let nanoseconds = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            return nanoseconds / 1e9
        }
        guard let text = try? String(contentsOfFile: "/sys/fs/cgroup/cpu.stat", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("usage_usec ") }),
            let microseconds = Double(line.dropFirst("usage_usec ".count))
        else { return nil }
        return microseconds / 1e6
    }

    /// CPU seconds of this process, every thread, those that ended too (`CLOCK_PROCESS_CPUTIME_ID`).
    static func ownSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The ids of this process's threads.
    static func threadIds() -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? [])
    }

    /// Names the threads started since `before` that still carry the process's own name (Foundation's
    /// `Thread.name` does not reach the kernel on Linux), so that CPU can be told apart by thread.
    static func label(threadsSince before: Set<String>, as name: String) {
        let inherited = (try? String(contentsOfFile: "/proc/self/comm", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        rename(threadsSince: before, to: name) { $0 == inherited }
    }

    /// What the bridge's libzmq I/O thread is renamed to, so that its CPU counts as the bridge's.
    static let bridgeIOThread = "bridge-zmq-io"
    /// What the raw relay's libzmq I/O thread is renamed to, so that its CPU counts as the relay's.
    static let rawRelayIOThread = "raw-zmq-io"

    /// Names libzmq's I/O threads (`ZMQbg/IO/n`) started since `before`: those of a context made since then.
    /// libzmq names a thread from inside it, just after starting it: until one carries its name (at most 2 s),
    /// this looks again. Call it before ``label(threadsSince:as:)``, which would otherwise take a thread not yet
    /// named by libzmq for one of the caller's.
    static func label(libzmqThreadsSince before: Set<String>, as name: String) {
        let deadline = ContinuousClock.now + .seconds(2)
        while rename(threadsSince: before, to: name, where: { $0.hasPrefix("ZMQbg/IO") }) == 0,
            ContinuousClock.now < deadline
        {
            Thread.sleep(forTimeInterval: 0.001)
        }
    }

    /// Renames each thread started since `before` whose current name `matches`; returns how many it renamed.
    @discardableResult
    private static func rename(
        threadsSince before: Set<String>, to name: String, where matches: (String) -> Bool
    ) -> Int {
        var renamed = 0
        for task in threadIds().subtracting(before) {
            let path = "/proc/self/task/\(task)/comm"
            guard
                let current = (try? String(contentsOfFile: path, encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines),
                matches(current)
            else { continue }
            if (try? String(name.prefix(15)).write(toFile: path, atomically: false, encoding: .utf8)) != nil {
                renamed += 1
            }
        }
        return renamed
    }

    /// The thread groups whose CPU is the bridge's own: its loop, its journal threads, its libzmq I/O thread
    /// (the last one named: a run without it has no figure).
    static let bridgeGroups = [Group.bridgeLoop, Group.journalWriter, Group.checkpointer, Group.bridgeIO]
    /// The thread groups whose CPU is the raw relay's own: its thread and its libzmq I/O thread (the last one
    /// named: a run without it has no figure).
    static let rawRelayGroups = [Group.rawRelay, Group.rawRelayIO]

    /// The names of the thread groups the CPU rows add up (one home for each: ``group(_:)`` and the lists).
    enum Group {
        static let bridgeLoop = "bridge loop"
        static let journalWriter = "journal writer"
        static let checkpointer = "journal checkpointer"
        static let bridgeIO = "bridge libzmq I/O"
        static let rawRelay = "raw relay"
        static let rawRelayIO = "raw relay libzmq I/O"
    }

    /// Names the calling thread (at most 15 bytes reach the kernel).
    static func nameCurrentThread(_ name: String) {
        try? String(name.prefix(15)).write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
    }

    private static func group(_ name: String) -> String {
        if name == bridgeIOThread { return Group.bridgeIO }
        if name == rawRelayIOThread { return Group.rawRelayIO }
        // The benchmark's own context (the load clients', the simulator's and the echo relays' sockets), and
        // every context's reaper thread, which is idle in a run.
        if name.hasPrefix("ZMQbg") { return "libzmq I/O" }
        if name.hasPrefix("bench-client") { return "load clients" }
        // Threads the bridge and the simulator name themselves (LoopThread), first.
        if name == "vivabridge" || name.hasPrefix("bridge-loop") { return Group.bridgeLoop }
        if name.hasPrefix("journal-writer") { return Group.journalWriter }
        if name.hasPrefix("journal-checkpo") { return Group.checkpointer }
        if name.hasPrefix("vivabridge-simu") || name.hasPrefix("simulator") { return "simulator" }
        if name.hasPrefix("bench-raw") { return Group.rawRelay }
        if name.hasPrefix("bench-echo") { return "echo relay" }
        // The HTTP listener (its event hub, NIO's event loops: the PostgreSQL journal's connections run on them
        // too) and the benchmark's own HTTP clients.
        if name.hasPrefix("http-events") { return "HTTP event hub" }
        if name.hasPrefix("NIO-") { return "NIO (HTTP listener, PostgreSQL client)" }
        if name.hasPrefix("bench-viewer") || name.hasPrefix("bench-scraper") { return "HTTP viewers" }
        if name.hasPrefix("bench-subscribe") { return "event subscriber" }  // the kernel keeps 15 bytes
        return "other"
    }
}
