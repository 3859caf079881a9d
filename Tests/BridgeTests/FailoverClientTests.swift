import Bridge
import BridgeClient
import Dispatch
import Foundation
import InterApp
import Logging
import LoopbackPorts
import Synchronization
import TerminalSimulator
import Testing
import ZeroMQ

/// The client's Lazy Pirate loop (``FailoverRequest``) against real bridges over TCP loopback: two bridges on
/// one SQLite journal, one after the other, stand for an active bridge and the standby that takes over.
@Suite("Failover client: one command, several bridges, the same id")
struct FailoverClientTests {
    private static let logger = Logger(label: "failover-test", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A bridge configuration for `lanes` on `journal`, binding `command` (ephemeral ports otherwise).
    private static func configuration(
        journal: URL, command: String = "tcp://127.0.0.1:*", lanes: [String: String]
    ) -> BridgeConfiguration {
        var configuration = BridgeConfiguration()
        configuration.command = command
        configuration.events = "tcp://127.0.0.1:*"
        configuration.journal = journal.path
        configuration.lanes = lanes.map { LaneConfiguration(id: $0.key, endpoint: $0.value, platform: .ios) }
        return configuration
    }

    @Test("a sale in flight when its bridge halts is answered by the next bridge, its URL sent once")
    func takeover() throws {
        var behaviour = LaneBehaviour()
        behaviour.fault = .neverAnswer
        let simulator = Simulator(lanes: [SimulatedLane(id: "lane-1", platform: .ios, behaviour: behaviour)], seed: 7)
        let relays = try simulator.start()
        defer { simulator.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-failover-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appendingPathComponent("journal.sqlite")
        let lanes = ["lane-1": try #require(relays["lane-1"])]

        let first = try Bridge(configuration: Self.configuration(journal: journal, lanes: lanes), logger: Self.logger)
        let firstEndpoint = try first.start().command
        #expect(simulator.waitForHello(lane: "lane-1", timeout: .seconds(10)))
        #expect(first.awaitLanesUp(["lane-1"], timeout: .seconds(10)))
        // The second bridge's port, refused until it binds there.
        let secondPort = try LoopbackPort(listening: false)
        let secondEndpoint = secondPort.endpoint

        let frame = Array(
            saleJSON(id: "pirate-1", lane: "lane-1", amount: 1200, extra: #","clientTransactionId":"pirate-1""#).utf8)
        let request = FailoverRequest(
            endpoints: [firstEndpoint, secondEndpoint], attemptMs: 60_000, maxAttempts: 4, totalMs: 60_000)
        let client = BlockingCall { try request.send(frame, id: "pirate-1") }

        #expect(simulator.waitForURLs(lane: "lane-1", count: 1, timeout: .seconds(10)))
        first.halt()  // the sale stays in flight in the journal; the client's connection drops
        secondPort.release()
        let second = try Bridge(
            configuration: Self.configuration(journal: journal, command: secondEndpoint, lanes: lanes),
            logger: Self.logger)
        _ = try second.start()
        defer { second.halt() }
        #expect(simulator.waitForHello(lane: "lane-1", count: 2, timeout: .seconds(10)))
        simulator.injectCallback(
            lane: "lane-1",
            url: "interapp-callback://result?status=success&action=sale&clientTransactionId=pirate-1&amount=1200")

        let answer = try #require(try client.result(), "no bridge answered")
        #expect(answer.endpoint == secondEndpoint)
        #expect(answer.attempts == 2)
        #expect(answer.reply.object["id"]?.stringValue == "pirate-1")
        #expect(answer.reply.object["outcome"]?.stringValue == "success")
        #expect(simulator.openedURLCount(lane: "lane-1") == 1)
    }

    @Test("an endpoint nobody binds, listed first, is left at once for the live bridge second")
    func refusedEndpointSkipped() throws {
        let harness = try BridgeHarness.lanes(.ios)
        let nobody = try LoopbackPort(listening: false)
        defer { nobody.release() }
        // Each attempt may wait a minute, all of them together 20 s: only leaving the refused endpoint at once
        // (not at the end of its attempt) gets the answer.
        let request = FailoverRequest(
            endpoints: [nobody.endpoint, harness.bound.command], attemptMs: 60_000, maxAttempts: 2, totalMs: 20_000)
        let frame = Array(#"{"id":"pirate-ping","action":"ping"}"#.utf8)
        let answer = try #require(try request.send(frame, id: "pirate-ping"), "no answer within 20 s")
        #expect(answer.endpoint == harness.bound.command)
        #expect(answer.attempts == 2)
        #expect(answer.reply.object["id"]?.stringValue == "pirate-ping")
    }
}

/// Runs a blocking call on a thread of its own (off Swift's cooperative pool) and hands back its result.
final class BlockingCall<Value: Sendable>: Sendable {
    private let outcome = Mutex<Result<Value, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () throws -> Value) {
        Thread { [self] in
            let result = Result { try body() }
            outcome.withLock { $0 = result }
            done.signal()
        }.start()
    }

    /// Waits for the call to end and returns what it returned (or throws what it threw).
    func result() throws -> Value {
        done.wait()
        done.signal()
        let result = outcome.withLock { $0 }
        return try result!.get()
    }
}
