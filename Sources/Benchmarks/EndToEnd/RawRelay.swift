import Foundation
import InterApp
import ZeroMQ

/// The limit: the bridge's topology and frame sizes with none of its logic. A ROUTER takes commands; the
/// lane is read by a byte scan; a same-sized `open` goes to the lane's relay over a DEALER; its callback is
/// answered with a reply of the bridge's reply size to the envelope that came in. No decoding, no journal,
/// no events, no correlation beyond "one command in flight per lane".
///
/// On a libzmq context of its own (`context` nil), as the bridge has, its I/O thread is named `raw-zmq-io`, so
/// that the CPU a sale of the relay's own threads compares with the bridge's.
final class RawRelay: Sendable {
    let commandEndpoint: String
    private let stop = StopFlag()
    private let worker: Worker<Void>
    /// The context the relay made for itself, ended with it.
    private let ownContext: Context?

    init(context shared: Context?, relayEndpoints: [String], wire: Wire, replyBytes: Int) throws {
        let threads = ThreadCPU.threadIds()
        let context: Context
        let ownContext: Context?
        if let shared {
            (context, ownContext) = (shared, nil)
        } else {
            let made = try Context(ioThreads: 1, maxSockets: Int32(max(1024, relayEndpoints.count * 2 + 64)))
            (context, ownContext) = (made, made)
        }
        let bound = Handover<Result<String, BenchError>>()
        let stop = stop
        let worker = Worker(name: "bench-raw") {
            Self.run(
                context: context, relayEndpoints: relayEndpoints, wire: wire, replyBytes: replyBytes, bound: bound,
                stop: stop)
        }
        let result = bound.take(timeoutSeconds: 30) ?? .failure(BenchError("the raw relay did not bind"))
        let endpoint: String
        do {
            endpoint = try result.get()
        } catch {
            stop.raise()
            worker.join()
            ownContext?.terminate()
            throw error
        }
        if ownContext != nil { ThreadCPU.label(libzmqThreadsSince: threads, as: ThreadCPU.rawRelayIOThread) }
        self.ownContext = ownContext
        self.worker = worker
        commandEndpoint = endpoint
    }

    /// Stops the relay's thread, then ends its own context, if it made one.
    func stopAndJoin() {
        stop.raise()
        worker.join()
        ownContext?.terminate()
    }

    private static func run(
        context: Context, relayEndpoints: [String], wire: Wire, replyBytes: Int,
        bound: Handover<Result<String, BenchError>>, stop: StopFlag
    ) {
        var links: [Socket] = []
        var commands: Socket?
        defer {
            for link in links { link.close() }
            commands?.close()
        }
        let poller = Poller()
        do {
            let socket = try Socket(context, .router)
            try socket.setRouterMandatory(true)
            try socket.setReceiveHighWaterMark(10_000)
            try socket.setSendHighWaterMark(10_000)
            try socket.bind("tcp://127.0.0.1:*")
            commands = socket
            poller.add(socket)
            for endpoint in relayEndpoints {
                let link = try Socket(context, .dealer)
                try link.setSendHighWaterMark(1000)
                try link.setReceiveHighWaterMark(1000)
                try link.connect(endpoint)
                try link.send(RelayMessage.hello(body: Array(#"{"bridge":"raw"}"#.utf8)).frames)
                poller.add(link)
                links.append(link)
            }
            bound.put(.success(try socket.lastEndpoint))
        } catch {
            bound.put(.failure(BenchError("raw relay: \(error)")))
            return
        }
        guard let commands else { return }
        var laneIndex: [String: Int] = [:]
        for lane in relayEndpoints.indices { laneIndex[Wire.laneId(lane)] = lane }
        var pending: [(envelope: [[UInt8]], id: ArraySlice<UInt8>)?] = Array(repeating: nil, count: links.count)
        let open = RelayMessage.Kind.open.word
        let callback = RelayMessage.Kind.callback.word
        let replyPrefix = Array(#"{"id":""#.utf8)
        let fixed = Array(#"","outcome":"success","late":false,"pad":""}"#.utf8)
        let padding = max(0, replyBytes - replyPrefix.count - CommandId.length - fixed.count)
        let replySuffix =
            Array(#"","outcome":"success","late":false,"pad":""#.utf8)
            + Array(repeating: UInt8(ascii: "x"), count: padding)
            + Array(#""}"#.utf8)

        while !stop.isRaised {
            guard (try? poller.poll(timeoutMilliseconds: 50)) != nil else { return }
            if !poller.ready(0).isEmpty {
                for _ in 0..<256 {
                    guard let frames = try? commands.receive(wait: false), let body = frames.last else { break }
                    guard let id = JSONScan.stringValue(JSONScan.idKey, in: body),
                        let laneName = JSONScan.stringValue(JSONScan.laneKey, in: body),
                        let lane = laneIndex[String(decoding: laneName, as: UTF8.self)]
                    else { continue }
                    pending[lane] = (Array(frames.dropLast()), id)
                    _ = try? links[lane].send([open, Array(id), wire.url], wait: false)
                }
            }
            for (lane, link) in links.enumerated() where !poller.ready(lane + 1).isEmpty {
                for _ in 0..<256 {
                    guard let frames = try? link.receive(wait: false) else { break }
                    guard frames.first == callback, let waiting = pending[lane] else { continue }
                    pending[lane] = nil
                    _ = try? commands.send(waiting.envelope + [replyPrefix + waiting.id + replySuffix], wait: false)
                }
            }
        }
    }
}
