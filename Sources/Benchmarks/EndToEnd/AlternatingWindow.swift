/// What a run's counters read: time, CPU per thread group (by thread name), other processes' CPU, the
/// machine's stolen seconds, and completed sales. Read at one instant (``now(completions:)``) they count from
/// boot; added up over stretches of a window (``add(from:to:)``), they are what those stretches took.
struct WindowTally {
    var seconds = 0.0
    var cpu: [String: Double] = [:]
    /// Every task's CPU seconds (``ThreadCPU/machineTaskSeconds()``; nil where it cannot be read) and this
    /// process's; their difference is the other processes'.
    var machineTasks: Double? = 0
    var own = 0.0
    var steal = 0.0
    /// Sales completed (0 where they are not counted as they complete).
    var completed = 0

    /// The counters now.
    static func now(completions: SharedCounter?) -> WindowTally {
        WindowTally(
            seconds: Monotonic.seconds(Monotonic.now()), cpu: ThreadCPU.snapshot(),
            machineTasks: ThreadCPU.machineTaskSeconds(), own: ThreadCPU.ownSeconds(), steal: ThreadCPU.stealSeconds(),
            completed: completions?.current ?? 0)
    }

    /// Adds the stretch between two readings (every thread counted alive at both ends, as CPU is read by name).
    mutating func add(from start: WindowTally, to end: WindowTally) {
        seconds += end.seconds - start.seconds
        for (name, value) in ThreadCPU.delta(start.cpu, end.cpu) { cpu[name, default: 0] += value }
        if let total = machineTasks, let startTasks = start.machineTasks, let endTasks = end.machineTasks {
            machineTasks = total + endTasks - startTasks
        } else {
            machineTasks = nil
        }
        own += end.own - start.own
        steal += end.steal - start.steal
        completed += end.completed - start.completed
    }

    /// The run's measurement over this tally: its sales a second, CPU and other processes' load; latency and
    /// replies are the clients' over the whole run. `completed` and `perSecondOver` replace the tally's own
    /// count and seconds (a plain run counts the sales sent inside its window, over its nominal length).
    func measurement(_ results: [LoadResult], completed: Int? = nil, perSecondOver: Double? = nil) -> RunMeasurement {
        let sales = completed ?? self.completed
        return RunMeasurement(
            salesPerSecond: Double(sales) / max(1e-9, perSecondOver ?? seconds),
            latency: LatencySummary(samples: results.flatMap(\.samples)),
            replies: results.map(\.replies).reduce(0, +),
            nonSuccess: results.map(\.nonSuccess).reduce(0, +),
            firstNonSuccess: results.compactMap(\.firstNonSuccess).first,
            replyBytes: results.map(\.replyBytes).max() ?? 0,
            cpu: cpu,
            otherProcessesCores: machineTasks.map { max(0, $0 - own) / max(1e-9, seconds) },
            stealCores: max(0, steal) / max(1e-9, seconds),
            measuredSeconds: seconds, completed: sales)
    }
}

/// A measured window cut into equal slices that alternate between two conditions (off, on, off, on, ...), so
/// that both see the same machine: the drift of a shared VM over a run (10-20% between two runs here, more
/// than a 5% target) falls on both alike. The switches are counted in neither: a slice starts once `on` has
/// returned (for the HTTP clients: once every viewer has its first bytes) and ends before `off`.
struct AlternatingWindow {
    let from: UInt64
    let to: UInt64
    /// An even number of slices, about a second each.
    let slices: Int

    init(from: UInt64, to: UInt64, seconds: Double) {
        self.from = from
        self.to = to
        slices = max(2, 2 * Int((seconds / 2).rounded()))
    }

    /// Runs the slices, calling `on` before each odd one and `off` after it; returns what each condition
    /// added up to.
    func run(completions: SharedCounter, off: () -> Void, on: () -> Void) -> (off: WindowTally, on: WindowTally) {
        var tallies = (off: WindowTally(), on: WindowTally())
        let length = (to - from) / UInt64(slices)
        for slice in 0..<slices {
            let isOn = slice % 2 == 1
            if isOn { on() }
            let start = WindowTally.now(completions: completions)
            Monotonic.sleep(until: from + length * UInt64(slice + 1))
            let end = WindowTally.now(completions: completions)
            if isOn {
                tallies.on.add(from: start, to: end)
                off()
            } else {
                tallies.off.add(from: start, to: end)
            }
        }
        return tallies
    }
}
