import Foundation
import Testing

@testable import vivabridge

/// The open-file limit: raised to the hard limit at start, and a configuration that needs more is said.
@Suite("vivabridge run and check: the open-file limit")
struct OpenFileLimitTests {
    @Test("the descriptors lanes need, and the warning when they exceed the limit")
    func computation() throws {
        #expect(DescriptorLimit.needed(lanes: 0) == DescriptorLimit.base)
        #expect(DescriptorLimit.needed(lanes: 1000) == DescriptorLimit.base + 1000 * DescriptorLimit.perLane)
        #expect(DescriptorLimit.shortfall(lanes: 3, limit: 1024) == nil)
        let needed = DescriptorLimit.needed(lanes: 1000)
        let warning = try #require(DescriptorLimit.shortfall(lanes: 1000, limit: 1024))
        #expect(warning.contains("1000 lane(s) need about \(needed) open files"), "\(warning)")
        #expect(warning.contains("the hard limit is 1024") && warning.contains("LimitNOFILE=\(needed)"))
    }

    @Test("run raises its soft limit to the hard limit at start")
    func runRaisesSoftLimit() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = try Self.config(in: folder, lanes: 1)
        let child = try ChildProcess(["run", "--config", config.path], ulimit: "-Sn 256")
        #expect(child.waitForLine(containing: "commands (ROUTER):") != nil, "\(child.errorOutput)")
        let limits = try String(contentsOfFile: "/proc/\(child.process.processIdentifier)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let numbers = line.split(separator: " ").compactMap { Int($0) }
        #expect(numbers.count == 2 && numbers[0] == numbers[1] && numbers[0] > 256, "\(line)")
        child.signal(SIGTERM)
        #expect(child.waitForExit(timeout: 20) == 0)
    }

    @Test("check says (exit 0) when the lanes need more open files than the hard limit, with the number needed")
    func checkSaysShortfall() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = try Self.config(in: folder, lanes: 100)
        let needed = DescriptorLimit.needed(lanes: 100)
        let low = try ChildProcess(["check", "--config", config.path], ulimit: "-n 300")
        #expect(low.waitForExit(timeout: 20) == 0)
        #expect(
            low.errorOutput.contains("warning: 100 lane(s) need about \(needed) open files"), "\(low.errorOutput)")
        #expect(low.errorOutput.contains("the hard limit is 300"))
        let enough = try ChildProcess(["check", "--config", config.path], ulimit: "-n \(needed)")
        #expect(enough.waitForExit(timeout: 20) == 0)
        #expect(enough.errorOutput.isEmpty, "\(enough.errorOutput)")
    }

    private static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-nofile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A configuration of `lanes` lanes whose relays never answer (nothing listens on their ipc paths).
    private static func config(in folder: URL, lanes: Int) throws -> URL {
        var yaml = """
            command: tcp://127.0.0.1:*
            events: tcp://127.0.0.1:*
            journal: \(folder.path)/journal.sqlite
            terminal: {merchantKey: K}
            lanes:

            """
        for index in 0..<lanes {
            yaml += "  - {id: lane-\(index), endpoint: \"ipc://\(folder.path)/relay-\(index)\", platform: ios}\n"
        }
        let file = folder.appendingPathComponent("bridge.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        return file
    }
}
