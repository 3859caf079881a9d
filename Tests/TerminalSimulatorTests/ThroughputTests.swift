import Foundation
import Testing
import ZeroMQ

@testable import TerminalSimulator

@Suite("Zero-delay throughput")
struct ThroughputTests {
    /// Drives `lanes` zero-delay lanes with a window of sales in flight per lane and returns sales per second.
    static func measure(lanes laneCount: Int, salesPerLane: Int, window: Int) throws -> Double {
        let lanes = (1...laneCount).map {
            SimulatedLane(id: "lane-\($0)", platform: $0 % 2 == 0 ? .android : .ios, behaviour: .zeroDelay)
        }
        let context = try Context()
        let simulator = Simulator(lanes: lanes, context: context, historyLimit: 1000)
        defer {
            simulator.stop()
            context.terminate()
        }
        let endpoints = try simulator.start()
        let sockets = try lanes.map { lane -> Socket in
            let socket = try Socket(context, .dealer)
            try socket.setSendHighWaterMark(0)
            try socket.setReceiveHighWaterMark(0)
            try socket.connect(try #require(endpoints[lane.id]))
            try socket.send(["hello", "{}"])
            return socket
        }
        let poller = Poller()
        for socket in sockets { poller.add(socket) }
        let urls = lanes.map { lane in
            (0..<window).map {
                Requests.sale(amount: 1200 + $0, clientTransactionId: "t\($0)", platform: lane.platform)
            }
        }
        var sent = Array(repeating: 0, count: laneCount)
        var callbacks = Array(repeating: 0, count: laneCount)
        let start = ContinuousClock.now
        for lane in 0..<laneCount {
            for index in 0..<min(window, salesPerLane) {
                try sockets[lane].send(["open", "r", urls[lane][index]])
                sent[lane] += 1
            }
        }
        var done = 0
        while done < laneCount {
            guard try poller.poll(timeoutMilliseconds: 5000) > 0 else { throw TimeoutError() }
            for lane in poller.readableIndices {
                while let frames = try sockets[lane].receive(wait: false) {
                    guard frames.first == Array("callback".utf8) else { continue }
                    callbacks[lane] += 1
                    if callbacks[lane] == salesPerLane { done += 1 }
                    if sent[lane] < salesPerLane {
                        try sockets[lane].send(["open", "r", urls[lane][sent[lane] % window]])
                        sent[lane] += 1
                    }
                }
            }
        }
        let elapsed = ContinuousClock.now - start
        for socket in sockets { socket.close() }
        return Double(laneCount * salesPerLane) / elapsed.seconds
    }

    struct TimeoutError: Error {}

    @Test("64 lanes answer thousands of sales a second")
    func sixtyFourLanes() throws {
        let rate = try Self.measure(lanes: 64, salesPerLane: 100, window: 8)
        print("simulator throughput: \(Int(rate)) sales/s (64 lanes)")
        #expect(rate > 500)
    }
}
