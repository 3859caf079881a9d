import Foundation
import Testing

/// A `vivabridge` child process whose output lines can be awaited.
final class ChildProcess: @unchecked Sendable {
    let process = Process()
    private let condition = NSCondition()
    private var lines: [String] = []
    private var errorLines: [String] = []
    private var ended = false
    private var errorEnded = false

    /// The `vivabridge` executable built beside the test bundle.
    static var executable: URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("vivabridge").path),
            folder.path != "/"
        {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("vivabridge")
    }

    /// Starts `vivabridge` (or `program`, such as a script of the repository) with `arguments` (in
    /// `currentDirectory`, or the test's own; with `ulimit`'s arguments, such as `-Sn 256`, applied by a shell
    /// that then becomes `vivabridge`, the same process).
    init(
        _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil,
        currentDirectory: URL? = nil, ulimit: String? = nil, program: URL = ChildProcess.executable
    ) throws {
        if let ulimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit \(ulimit) && exec \"$0\" \"$@\"", program.path] + arguments
        } else {
            process.executableURL = program
            process.arguments = arguments
        }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let stdin {
            let input = Pipe()
            process.standardInput = input
            try process.run()
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        } else {
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }
        read(out.fileHandleForReading, isError: false)
        read(err.fileHandleForReading, isError: true)
    }

    private func read(_ handle: FileHandle, isError: Bool) {
        let thread = Thread { [self] in
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 10) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    condition.lock()
                    if isError { errorLines.append(line) } else { lines.append(line) }
                    condition.broadcast()
                    condition.unlock()
                }
            }
            condition.lock()
            let rest = String(decoding: buffer, as: UTF8.self)
            if isError {
                if !rest.isEmpty { errorLines.append(rest) }
                errorEnded = true
            } else {
                if !rest.isEmpty { lines.append(rest) }
                ended = true
            }
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    /// Waits for a standard-output line containing `text`; returns it.
    func waitForLine(containing text: String, timeout: TimeInterval = 30) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = lines.first(where: { $0.contains(text) }) { return line }
            if ended || !condition.wait(until: deadline) { return lines.first(where: { $0.contains(text) }) }
        }
    }

    /// Waits until `count` standard-output lines contain `text`; returns the last of them.
    func waitForLine(containing text: String, count: Int, timeout: TimeInterval = 30) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let found = lines.filter { $0.contains(text) }
            if found.count >= count { return found.last }
            if ended || !condition.wait(until: deadline) { return nil }
        }
    }

    /// Waits for a standard-error line containing `text`; returns it.
    func waitForErrorLine(containing text: String, timeout: TimeInterval = 30) -> String? {
        waitForErrorLine(containingAll: [text], timeout: timeout)
    }

    /// Waits for a standard-error line containing every one of `texts` (a log message and its
    /// `key=value` metadata); returns it.
    func waitForErrorLine(containingAll texts: [String], timeout: TimeInterval = 30) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        let matches: (String) -> Bool = { line in texts.allSatisfy { line.contains($0) } }
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = errorLines.first(where: matches) { return line }
            if errorEnded || !condition.wait(until: deadline) { return errorLines.first(where: matches) }
        }
    }

    /// Waits for the process to end (and both its outputs to be read); returns its exit status.
    func waitForExit(timeout: TimeInterval = 60) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        while !ended || !errorEnded {
            if !condition.wait(until: deadline) { break }
        }
        condition.unlock()
        guard ended && errorEnded else { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Everything printed so far on standard output and standard error.
    var output: String {
        condition.lock()
        defer { condition.unlock() }
        return lines.joined(separator: "\n")
    }

    var errorOutput: String {
        condition.lock()
        defer { condition.unlock() }
        return errorLines.joined(separator: "\n")
    }

    /// Sends `signal` (SIGKILL, SIGTERM, ...).
    func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
