import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// CPU time and resident memory of a process, from `/proc`.
enum ProcessStats {
    /// Nanoseconds on a CPU of each thread of process `pid` (`/proc/<pid>/task/*/schedstat`), by thread id.
    static func threadCPU(pid: Int32) -> [String: UInt64] {
        var out: [String: UInt64] = [:]
        for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8),
                let first = text.split(separator: " ").first, let value = UInt64(first)
            else { continue }
            out[task] = value
        }
        return out
    }

    /// CPU seconds process `pid` spent between two ``threadCPU(pid:)`` snapshots: per thread, so that a thread
    /// ending in between takes nothing away (its last moments are lost; a new thread counts whole).
    static func cpuSeconds(from before: [String: UInt64], to after: [String: UInt64]) -> Double {
        var nanoseconds: UInt64 = 0
        for (task, value) in after { nanoseconds += value - min(value, before[task] ?? 0) }
        return Double(nanoseconds) / 1e9
    }

    /// `utime + stime` of `/proc/<pid>/stat`, in seconds (every thread, including ended ones).
    static func tickSeconds(pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name: state is field 3; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Resident memory of process `pid` in bytes (`VmRSS` of `/proc/<pid>/status`).
    static func residentBytes(pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let parts = line.split(separator: " ")
            if parts.count >= 2, let kilobytes = Int(parts[1]) { return kilobytes * 1024 }
        }
        return nil
    }
}
