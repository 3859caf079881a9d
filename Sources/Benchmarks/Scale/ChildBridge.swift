import Foundation

/// `vivabridge run --config FILE` as a child process, on a generated configuration, so its CPU and memory
/// are its own and not the simulator's or the load clients'.
final class ChildBridge {
    let process = Process()
    let folder: String
    private(set) var commandEndpoint = ""

    /// Writes a configuration for `relays` (lane relay endpoints) and starts the bridge on it.
    init(binary: String, relays: [String], sync: String = "normal", folder parent: String) throws {
        folder = (parent as NSString).appendingPathComponent("bench-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var yaml = """
            command: tcp://127.0.0.1:*
            events: tcp://127.0.0.1:*
            journal: \(folder)/journal.sqlite
            journalSync: \(sync)
            shutdownGraceMs: 500
            terminal:
              merchantKey: \(Wire.merchantKey)
              appId: \(Wire.settings.appId)
            lanes:

            """
        for (index, endpoint) in relays.enumerated() {
            yaml += "  - {id: \(Wire.laneId(index)), endpoint: \"\(endpoint)\", platform: ios}\n"
        }
        let config = folder + "/bridge.yaml"
        try yaml.write(toFile: config, atomically: true, encoding: .utf8)
        let stdoutPath = folder + "/stdout.txt"
        let stderrPath = folder + "/stderr.txt"
        guard FileManager.default.createFile(atPath: stdoutPath, contents: nil),
            FileManager.default.createFile(atPath: stderrPath, contents: nil)
        else { throw BenchError("cannot create files in \(folder)") }
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["run", "--config", config, "--log-level", "warning"]
        process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: stdoutPath, encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.contains("commands (ROUTER):") }),
                let endpoint = line.split(separator: " ").last
            {
                commandEndpoint = String(endpoint)
                return
            }
            if !process.isRunning {
                let errors = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
                try? FileManager.default.removeItem(atPath: folder)
                throw BenchError("vivabridge run exited with \(process.terminationStatus): \(errors.suffix(2000))")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        stop()
        throw BenchError("vivabridge run printed no command endpoint within 60 s")
    }

    var pid: Int32 { process.processIdentifier }

    /// SIGTERM, then SIGKILL if it has not ended within 10 s; removes its folder.
    func stop() {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The sizes in bytes of the journal's files (database, `-wal`, `-shm`); 0 for a file not there.
    var journalFiles: (database: Int, wal: Int, shm: Int) {
        func size(_ suffix: String) -> Int {
            let path = folder + "/journal.sqlite" + suffix
            return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        }
        return (size(""), size("-wal"), size("-shm"))
    }

    /// The child's stderr, for a failure report.
    var errors: String { (try? String(contentsOfFile: folder + "/stderr.txt", encoding: .utf8)) ?? "" }

    /// The `vivabridge` binary beside this one (both are built into the same folder).
    static func defaultBinary() -> String? {
        guard let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let candidate = ((me as NSString).deletingLastPathComponent as NSString).appendingPathComponent("vivabridge")
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }
}
