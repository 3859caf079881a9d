import Bridge
import Foundation
import InterApp
import Logging
import Testing
import ZeroMQ

@Suite("Many lanes")
struct ScaleTests {
    @Test("a bridge with 1,000 lanes starts (every lane has a link and a monitor) and answers")
    func thousandLanes() throws {
        var configuration = BridgeConfiguration()
        configuration.command = "tcp://127.0.0.1:*"
        configuration.events = "tcp://127.0.0.1:*"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-scale-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        configuration.journal = folder.appendingPathComponent("journal.sqlite").path
        // Nothing listens at these paths (in a folder of this test's own; a TCP port range could be taken by a
        // relay another test runs at the same time): the lanes stay disconnected, which is all this test needs.
        configuration.lanes = (0..<1000).map {
            LaneConfiguration(
                id: "lane-\($0)", endpoint: "ipc://\(folder.path)/lane-\($0)", platform: .ios)
        }
        let bridge = try Bridge(configuration: configuration, logger: Logger(label: "scale-test"))
        let bound = try bridge.start()
        defer { bridge.halt() }
        let context = try Context()
        defer { context.terminate() }
        let client = try Socket(context, .dealer)
        defer { client.close() }
        try client.setReceiveTimeout(10_000)
        try client.connect(bound.command)
        try client.send([#"{"id":"lanes","action":"lanes"}"#])
        let reply = try JSONValue.parse(try #require(try client.receive()).last!)
        let lanes = reply.objectValue?["result"]?.objectValue?["lanes"]?.arrayValue ?? []
        #expect(lanes.count == 1000)
        try client.send([#"{"id":"s","lane":"lane-999","action":"sale","amount":100}"#])
        let sale = try JSONValue.parse(try #require(try client.receive()).last!)
        #expect(sale.objectValue?["outcome"]?.stringValue == "undeliverable")
    }
}

@Suite("A journal that cannot be opened stops the start with a clear error")
struct JournalErrorTests {
    @Test("a journal path under a regular file names the file and the folder")
    func unwritableJournal() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-not-a-folder-\(UUID().uuidString)")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var configuration = BridgeConfiguration()
        configuration.command = "tcp://127.0.0.1:*"
        configuration.events = "tcp://127.0.0.1:*"
        configuration.journal = file.appendingPathComponent("journal.sqlite").path
        let bridge = try Bridge(configuration: configuration, logger: Logger(label: "journal-error-test"))
        do {
            try bridge.start()
            bridge.halt()
            Issue.record("the bridge started without a journal")
        } catch let error as JournalError {
            #expect(error.path == configuration.journal)
            #expect(error.description.contains(file.path))
        }
    }
}
