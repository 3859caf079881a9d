import Foundation
import InterApp
import ZeroMQ

/// A relay per lane with no terminal behind it: each `open` is answered at once with `opened` and a
/// callback of the simulator's exact size and shape (the same `clientTransactionId` splice), so the bridge
/// can be measured without the simulator's cost, and the raw relay has a far end.
final class EchoRelay: Sendable {
    let endpoints: [String]
    let readiness: LaneReadiness
    private let stop = StopFlag()
    private let worker: Worker<Void>

    init(context: Context, lanes: Int, wire: Wire) throws {
        let readiness = LaneReadiness(lanes: lanes)
        let bound = Handover<Result<[String], BenchError>>()
        let stop = stop
        worker = Worker(name: "bench-echo") {
            Self.run(context: context, lanes: lanes, wire: wire, readiness: readiness, bound: bound, stop: stop)
        }
        guard let result = bound.take(timeoutSeconds: 30) else { throw BenchError("the echo relay did not bind") }
        endpoints = try result.get()
        self.readiness = readiness
    }

    func stopAndJoin() {
        stop.raise()
        worker.join()
    }

    private static func run(
        context: Context, lanes: Int, wire: Wire, readiness: LaneReadiness,
        bound: Handover<Result<[String], BenchError>>,
        stop: StopFlag
    ) {
        var sockets: [Socket] = []
        defer { for socket in sockets { socket.close() } }
        let poller = Poller()
        do {
            var endpoints: [String] = []
            for _ in 0..<lanes {
                let socket = try Socket(context, .router)
                try socket.setSendHighWaterMark(1000)
                try socket.setReceiveHighWaterMark(1000)
                try socket.bind("tcp://127.0.0.1:*")
                endpoints.append(try socket.lastEndpoint)
                poller.add(socket)
                sockets.append(socket)
            }
            bound.put(.success(endpoints))
        } catch {
            bound.put(.failure(BenchError("echo relay: \(error)")))
            return
        }
        let open = RelayMessage.Kind.open.word
        let hello = RelayMessage.Kind.hello.word
        let opened = RelayMessage.Kind.opened.word
        let callback = RelayMessage.Kind.callback.word
        let helloBody = Array(#"{"platform":"ios","app":"echo relay","version":"bench"}"#.utf8)
        while !stop.isRaised {
            guard (try? poller.poll(timeoutMilliseconds: 50)) != nil else { return }
            for (lane, socket) in sockets.enumerated() where !poller.ready(lane).isEmpty {
                for _ in 0..<256 {
                    guard let frames = try? socket.receive(wait: false), frames.count >= 2 else { break }
                    let peer = frames[0]
                    if frames[1] == open, frames.count >= 4 {
                        let ref = frames[2]
                        _ = try? socket.send([peer, opened, ref], wait: false)
                        _ = try? socket.send(
                            [peer, callback, wire.callbackPrefix + ref + wire.callbackSuffix], wait: false)
                    } else if frames[1] == hello {
                        _ = try? socket.send([peer, hello, helloBody], wait: false)
                        readiness.mark(lane)
                    }
                }
            }
        }
    }
}
