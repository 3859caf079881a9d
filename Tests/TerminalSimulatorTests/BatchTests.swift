import Foundation
import Testing

@testable import TerminalSimulator

@Suite("Batches: open, replace, close by name, by id, the active one, 48-hour expiry")
struct BatchTests {
    static func batch(_ command: String, name: String? = nil, id: String? = nil, _ platform: SimulatorPlatform)
        -> String
    {
        var parameters = [("command", command)]
        if let name { parameters.append(("batchName", name)) }
        if let id { parameters.append(("batchId", id)) }
        return Requests.url(action: "batch", parameters, platform: platform)
    }

    @Test("open then close the active batch", arguments: SimulatorPlatform.allCases)
    func openClose(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform)
        let probe = fixture.probe()
        let opened = CallbackFields(try probe.request(Self.batch("open", name: "morningShift", platform)))
        #expect(opened.names == ["action", "command", "batchName", "batchId", "status", "message"])
        #expect(opened["action"] == "batch")
        #expect(opened["command"] == "open")
        #expect(opened["batchName"] == "morningShift")
        #expect(opened["status"] == "success")
        #expect(opened["message"] == "Batch opened")
        let id = try #require(opened["batchId"])
        #expect(UUID(uuidString: id) != nil)
        #expect(id == (platform == .ios ? id.uppercased() : id.lowercased()))
        let open = try #require(fixture.simulator.openBatch(lane: "lane"))
        #expect(open.name == "morningShift")
        #expect(open.id == id)
        #expect(open.openedAt == fixture.clock.now())

        let closed = CallbackFields(try probe.request(Self.batch("close", platform)))
        #expect(closed["command"] == "close")
        #expect(closed["batchName"] == "morningShift")
        #expect(closed["batchId"] == id)
        #expect(closed["message"] == "Batch closed")
        #expect(fixture.simulator.openBatch(lane: "lane") == nil)
        #expect(fixture.simulator.batches(lane: "lane").map(\.closeReason) == [.command])

        let none = CallbackFields(try probe.request(Self.batch("close", platform)))
        #expect(none["status"] == (platform == .ios ? "failed" : "fail"))
        #expect(none["message"] == (platform == .ios ? "No open batch." : "(-999) UNEXPECTED - No open batch."))
    }

    @Test("opening a batch replaces the open one")
    func replace() throws {
        let fixture = try Fixture(.ios)
        let probe = fixture.probe()
        let first = CallbackFields(try probe.request(Self.batch("open", name: "morning", .ios)))
        fixture.clock.advance(by: 3600)
        _ = try probe.request(Self.batch("open", name: "evening", .ios))
        #expect(fixture.simulator.openBatch(lane: "lane")?.name == "evening")
        let batches = fixture.simulator.batches(lane: "lane")
        #expect(batches.map(\.name) == ["morning", "evening"])
        #expect(batches[0].closeReason == .replaced)
        #expect(batches[0].id == first["batchId"])
        // The replaced batch is closed: closing it by id fails.
        let byOldId = CallbackFields(try probe.request(Self.batch("close", id: first["batchId"], .ios)))
        #expect(byOldId["message"] == "Batch not found.")
    }

    @Test("close by name and by id", arguments: SimulatorPlatform.allCases)
    func byNameAndId(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform)
        let probe = fixture.probe()
        _ = try probe.request(Self.batch("open", name: "a", platform))
        let wrongName = CallbackFields(try probe.request(Self.batch("close", name: "b", platform)))
        #expect(wrongName["status"] == (platform == .ios ? "failed" : "fail"))
        let byName = CallbackFields(try probe.request(Self.batch("close", name: "a", platform)))
        #expect(byName["message"] == "Batch closed")

        let opened = CallbackFields(try probe.request(Self.batch("open", name: "c", platform)))
        let id = try #require(opened["batchId"])
        let wrongId = CallbackFields(try probe.request(Self.batch("close", id: UUID().uuidString, platform)))
        #expect(wrongId["status"] == (platform == .ios ? "failed" : "fail"))
        let byId = CallbackFields(try probe.request(Self.batch("close", id: id.lowercased(), platform)))
        #expect(byId["message"] == "Batch closed")
        #expect(byId["batchName"] == "c")
    }

    @Test("a batch without a name gets one")
    func automaticName() throws {
        let fixture = try Fixture(.android)
        let opened = CallbackFields(try fixture.probe().request(Self.batch("open", .android)))
        #expect(opened["batchName"] == "Batch-20261121-121419")
    }

    @Test("a batch open for 48 hours is closed by expiry", arguments: SimulatorPlatform.allCases)
    func expiry(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform)
        let probe = fixture.probe()
        _ = try probe.request(Self.batch("open", name: "weekend", platform))
        fixture.clock.advance(by: 48 * 3600 - 1)
        #expect(fixture.simulator.openBatch(lane: "lane")?.name == "weekend")
        fixture.clock.advance(by: 1)
        #expect(fixture.simulator.openBatch(lane: "lane") == nil)
        #expect(fixture.simulator.batches(lane: "lane").last?.closeReason == .expired)
        let close = CallbackFields(try probe.request(Self.batch("close", platform)))
        #expect(close["status"] == (platform == .ios ? "failed" : "fail"))
        let batch = try #require(fixture.simulator.batches(lane: "lane").last)
        #expect(batch.closeReason == .expired)
        #expect(batch.closedAt == batch.openedAt + 48 * 3600)
    }
}
