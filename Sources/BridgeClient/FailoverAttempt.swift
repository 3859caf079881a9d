import ZeroMQ

/// One attempt of a ``FailoverRequest``: a DEALER of its own to one endpoint (`ZMQ_IMMEDIATE`, linger 0,
/// ZMTP heartbeats) and a monitor that says when the connection is refused or drops.
final class FailoverAttempt {
    /// How an attempt ended.
    enum Ending {
        /// The reply to the command.
        case answered(CommandConnection.Reply)
        /// The connection was refused (or its handshake failed) before the command could go out.
        case refused
        /// The connection dropped after the command went out: its reply cannot come on it.
        case dropped
        /// No reply in time.
        case timedOut
    }

    private let socket: Socket
    private let monitor: Socket

    init(context: Context, endpoint: String, curve: ClientCurve?) throws {
        socket = try Socket(context, .dealer)
        do {
            try socket.setLinger(0)
            try socket.setImmediate(true)
            try socket.setHeartbeatInterval(FailoverRequest.heartbeatIntervalMs)
            try socket.setHeartbeatTimeout(FailoverRequest.heartbeatTimeoutMs)
            try curve?.apply(to: socket)
        } catch {
            socket.close()
            throw error
        }
        do {
            monitor = try socket.openMonitor(events: [.connectRetried, .disconnected, .handshakeFailed])
        } catch {
            socket.close()
            throw error
        }
        do {
            try socket.connect(endpoint)
        } catch {
            close()
            throw error
        }
    }

    /// Closes the socket (linger 0: a command not yet sent is dropped) and its monitor.
    func close() {
        try? socket.stopMonitor()
        monitor.close()
        socket.close()
    }

    /// Sends `frame` once the connection is complete and waits for the reply to `id` until `deadline`.
    ///
    /// - Parameter mayEndEarly: whether a refused or dropped connection ends the attempt at once; when false
    ///   the attempt waits for its deadline, and sends the command again if the connection comes back.
    func run(_ frame: [UInt8], id: String, until deadline: ContinuousClock.Instant, mayEndEarly: Bool) throws
        -> Ending
    {
        let poller = Poller()
        let command = poller.add(socket, events: .writable)
        let events = poller.add(monitor)
        var sent = false
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return .timedOut }
            try poller.poll(timeoutMilliseconds: left.wholeMilliseconds)
            if poller.ready(events).contains(.readable) {
                while let event = try monitor.receiveMonitorEvent(wait: false) {
                    let lost =
                        event.kind == .disconnected || event.kind == .connectRetried
                        || event.kind.isHandshakeFailure
                    guard lost else { continue }
                    if mayEndEarly { return sent ? .dropped : .refused }
                    if sent && event.kind == .disconnected {
                        sent = false  // its reply cannot come on this connection: sent again when it is back
                        poller.setEvents(.writable, at: command)
                    }
                }
            }
            let ready = poller.ready(command)
            if !sent, ready.contains(.writable) {
                if try socket.send([frame], wait: false) {
                    sent = true
                    poller.setEvents(.readable, at: command)
                }
            } else if sent, ready.contains(.readable) {
                while let frames = try socket.receive(wait: false) {
                    if let reply = CommandConnection.Reply(frames: frames, answering: id) { return .answered(reply) }
                }
            }
        }
    }
}
