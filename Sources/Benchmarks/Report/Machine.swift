import Foundation

/// The machine a run happened on: cores, CPU model, Swift version, the journal's file system.
enum Machine {
    static func describe(journalFolder: String) -> String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let cpu =
            (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        let memory = ProcessInfo.processInfo.physicalMemory / 1_048_576
        let kernel = ProcessInfo.processInfo.operatingSystemVersionString
        let load =
            (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
            .joined(separator: " ") ?? "?"
        return "machine: nproc \(cores), \(cpu), \(memory) MB RAM, \(kernel), load average \(load) at start; "
            + "\(swiftVersion()); "
            + "built \(buildMode); journal folder \(journalFolder) (\(fileSystem(of: journalFolder)))"
    }

    static var buildMode: String {
        #if DEBUG
            "debug (figures are not meaningful)"
        #else
            "release"
        #endif
    }

    /// The compiler that built this binary.
    static func swiftVersion() -> String {
        #if compiler(>=6.3)
            let compiler = "Swift 6.3+"
        #elseif compiler(>=6.2)
            let compiler = "Swift 6.2"
        #else
            let compiler = "Swift < 6.2"
        #endif
        if let output = run("/usr/bin/env", ["swift", "--version"]),
            let line = output.split(separator: "\n").first(where: { $0.contains("Swift version") })
        {
            return line.trimmingCharacters(in: .whitespaces)
        }
        return compiler
    }

    /// The file system type of the mount holding `path`, from /proc/mounts (tmpfs makes `full` sync free).
    static func fileSystem(of path: String) -> String {
        guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else { return "unknown fs" }
        var best: (point: String, type: String) = ("", "unknown fs")
        for line in mounts.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count >= 3 else { continue }
            let point = String(parts[1])
            if path.hasPrefix(point), point.count > best.point.count { best = (point, String(parts[2])) }
        }
        return best.type
    }

    private static func run(_ tool: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
