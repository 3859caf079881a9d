import Bridge
import Foundation
import InterApp
import Logging
import TerminalSimulator
import Testing
import ZeroMQ

@Suite("Epoch: one more for each bridge that started, none for one that failed to")
struct EpochTests {
    @Test("a start that cannot bind its command socket leaves the epoch alone")
    func failedStartKeepsEpoch() throws {
        let context = try Context()
        defer { context.terminate() }
        let holder = try Socket(context, .router)
        defer { holder.close() }
        try holder.bind("tcp://127.0.0.1:*")
        let taken = try holder.lastEndpoint
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-epoch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = BridgeConfiguration()
        configuration.command = taken
        configuration.events = "tcp://127.0.0.1:*"
        configuration.journal = folder.appendingPathComponent("journal.sqlite").path
        configuration.lanes = [LaneConfiguration(id: "l", endpoint: "tcp://127.0.0.1:1", platform: .ios)]
        let logger = Logger(label: "epoch-test", factory: { _ in SwiftLogNoOpLogHandler() })
        for _ in 0..<2 {
            let failing = try Bridge(configuration: configuration, logger: logger)
            #expect(throws: (any Error).self) { try failing.start() }
        }
        configuration.command = "tcp://127.0.0.1:*"
        let bridge = try Bridge(configuration: configuration, logger: logger)
        let bound = try bridge.start()
        defer { bridge.halt() }
        let client = try Socket(context, .dealer)
        defer { client.close() }
        try client.setReceiveTimeout(10_000)
        try client.connect(bound.command)
        // Every event carries the epoch: an undeliverable sale (the lane has no relay) publishes one.
        let subscriber = try Socket(context, .sub)
        defer { subscriber.close() }
        try subscriber.subscribe("")
        try subscriber.connect(bound.events)
        try subscriber.setReceiveTimeout(100)
        var epoch: Int?
        for attempt in 0..<100 where epoch == nil {
            try client.send([Array(#"{"id":"s\#(attempt)","lane":"l","action":"sale","amount":1}"#.utf8)])
            _ = try client.receive()
            if let frames = try subscriber.receive(), let body = try JSONValue.parse(frames[1]).objectValue {
                epoch = body.int("epoch")
            }
        }
        #expect(epoch == 1)
    }

    @Test("the relay hello carries the bridge's epoch, one more at each start on the journal")
    func helloCarriesEpoch() throws {
        let context = try Context()
        defer { context.terminate() }
        let relay = try HostileRelay(context: context)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-epoch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = BridgeConfiguration()
        configuration.command = "tcp://127.0.0.1:*"
        configuration.events = "tcp://127.0.0.1:*"
        configuration.journal = folder.appendingPathComponent("journal.sqlite").path
        configuration.lanes = [LaneConfiguration(id: "l", endpoint: relay.endpoint, platform: .ios)]
        let logger = Logger(label: "epoch-test", factory: { _ in SwiftLogNoOpLogHandler() })
        var previous: [UInt8]?
        for expected in 1...2 {
            let bridge = try Bridge(configuration: configuration, logger: logger)
            _ = try bridge.start()
            previous = try relay.awaitHello(otherThan: previous)
            bridge.halt()
            #expect(relay.lastHello == BridgeHello(bridge: BridgeVersion.current, lane: "l", epoch: expected))
        }
    }
}
