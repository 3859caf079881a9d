import Foundation
import Testing

@testable import TerminalSimulator

@Suite("The request observer (simulate --record)")
struct RequestObserverTests {
    @Test("every request a relay receives is observed once, with its lane and reference, before it is answered")
    func observed() throws {
        let seen = Observed()
        let fixture = try Fixture(
            lanes: [SimulatedLane(id: "lane", platform: .ios)], requestObserver: { seen.append($0) })
        let url = Requests.sale(amount: 1200, platform: .ios)
        let reference = try fixture.probe().open(url, ref: "chaos-1")
        try fixture.probe().expectOpened(reference)
        #expect(seen.all == [ObservedRequest(lane: "lane", reference: "chaos-1", url: url)])
        _ = try fixture.probe().callback()
        _ = try fixture.probe().open("not a url at all", ref: "chaos-2")
        _ = try fixture.probe().next()
        #expect(seen.all.map(\.reference) == ["chaos-1", "chaos-2"])
    }
}

private final class Observed: @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [ObservedRequest] = []

    func append(_ request: ObservedRequest) { lock.withLock { requests.append(request) } }
    var all: [ObservedRequest] { lock.withLock { requests } }
}
