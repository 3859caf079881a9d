import InterApp
import Logging
import ZeroMQ

/// The relay side of one lane's terminal link (PROTOCOL.md §5): the bound socket, the bridge it last heard
/// from, and the callbacks waiting for a bridge. Owned by the loop thread.
final class LaneLink {
    let id: String
    let kind: RelaySocketKind
    /// The endpoint asked for (`tcp://127.0.0.1:*` allowed).
    let requestedEndpoint: String
    /// The relay's CURVE secret key; nil for a plain relay.
    private let curveSecretKey: String?
    /// The endpoint really bound (wildcard port resolved); a restored link binds it again.
    private(set) var boundEndpoint: String?
    private(set) var socket: Socket?
    /// A ROUTER's routing id of the bridge it last heard from.
    var peer: [UInt8]?
    /// Messages the relay could not hand to a bridge yet (none connected, or it went away); sent when a
    /// bridge next speaks. With ``unreceived``, at most ``outboxLimit``; older ones are dropped first.
    private(set) var outbox: [RelayMessage] = []
    /// Numbered callbacks handed to a bridge that no bridge answered `received` yet (v1.3), oldest first:
    /// put back in front of the outbox after each accepted `hello` (``resendUnreceived()``).
    private(set) var unreceived: [RelayMessage] = []
    /// The number the next callback gets: from 1 at the relay's start (PROTOCOL.md §5).
    private var nextSeq: UInt64 = 1
    /// The epoch rule: which bridges' links are served (PROTOCOL.md §5).
    var epochs = LinkEpochs()
    /// Changes at every drop and restore, so that late actions of an older link are dropped.
    private(set) var generation: UInt64 = 0
    private let logger: Logger

    static let outboxLimit = 10_000

    init(id: String, kind: RelaySocketKind, endpoint: String, curveSecretKey: String? = nil, logger: Logger) {
        self.id = id
        self.kind = kind
        self.curveSecretKey = curveSecretKey
        self.requestedEndpoint = endpoint
        self.logger = logger
    }

    /// Whether callbacks wait for a bridge.
    var hasOutbox: Bool { !outbox.isEmpty }

    /// Whether the link is up (socket bound).
    var isUp: Bool { socket != nil }

    /// Creates the socket and binds it, at the endpoint bound before if there was one.
    func open(context: Context) throws {
        let socket = try Socket(context, kind == .router ? .router : .dealer)
        do {
            if kind == .router { try socket.setRouterMandatory(true) }
            if let curveSecretKey {
                try socket.setCurveServer(true)
                try socket.setCurveSecretKey(curveSecretKey)
            }
            try socket.setSendHighWaterMark(100_000)
            try socket.setReceiveHighWaterMark(100_000)
            try socket.bind(boundEndpoint ?? requestedEndpoint)
            boundEndpoint = try socket.lastEndpoint
        } catch {
            socket.close()
            throw error
        }
        self.socket = socket
    }

    /// Closes the socket (the relay goes down): every connection drops, queued callbacks are lost.
    func close() {
        socket?.close()
        socket = nil
        peer = nil
        forget()
    }

    /// Starts a new generation without closing (a restart): what waited is lost, numbering starts again.
    func forget() {
        outbox.removeAll()
        unreceived.removeAll()
        nextSeq = 1
        epochs.reset()
        generation += 1
    }

    /// Sends a reply to the bridge that sent `from` (a ROUTER's routing id); dropped if it cannot go now.
    func reply(to from: [UInt8]?, _ message: RelayMessage) {
        guard let socket else { return }
        do {
            let sent = try socket.send(kind == .router ? [from ?? []] + message.frames : message.frames, wait: false)
            if !sent { logger.debug("reply dropped: bridge not reachable", metadata: ["lane": "\(id)"]) }
        } catch {
            logger.debug("reply dropped", metadata: ["lane": "\(id)", "error": "\(error)"])
        }
    }

    /// Sends a message to the bridge, or keeps it in the outbox until a bridge speaks. A callback gets the
    /// relay's next number, and is kept until a bridge answers `received`. Returns false when the link is
    /// down and the message is lost.
    @discardableResult
    func deliver(_ message: RelayMessage) -> Bool {
        guard socket != nil else { return false }
        var message = message
        if case .callback(let url, nil) = message {
            message = .callback(url: url, seq: nextSeq)
            nextSeq += 1
        }
        if !outbox.isEmpty || !send(message) {
            outbox.append(message)
            trim()
        }
        return true
    }

    /// Sends what waits in the outbox, in order, as far as it goes.
    func flushOutbox() {
        var sent = 0
        while sent < outbox.count, send(outbox[sent]) { sent += 1 }
        if sent > 0 { outbox.removeFirst(sent) }
    }

    /// A bridge's `received`: callback `seq` is journaled, the relay forgets it.
    func received(_ seq: UInt64) {
        unreceived.removeAll { if case .callback(_, let number?) = $0 { number == seq } else { false } }
    }

    /// After an accepted `hello` (answered first): every callback still unanswered goes again, in order,
    /// ahead of what waits in the outbox (all of it younger).
    func resendUnreceived() {
        guard !unreceived.isEmpty else { return }
        outbox.insert(contentsOf: unreceived, at: 0)
        unreceived.removeAll()
    }

    /// Sends `message` now if it can go; a numbered callback sent is kept until its `received`.
    private func send(_ message: RelayMessage) -> Bool {
        guard trySend(message) else { return false }
        if case .callback(_, _?) = message {
            unreceived.append(message)
            trim()
        }
        return true
    }

    /// Keeps at most ``outboxLimit`` callbacks and messages waiting, dropping the oldest first.
    private func trim() {
        var excess = unreceived.count + outbox.count - LaneLink.outboxLimit
        guard excess > 0 else { return }
        let fromUnreceived = min(excess, unreceived.count)
        unreceived.removeFirst(fromUnreceived)
        excess -= fromUnreceived
        if excess > 0 { outbox.removeFirst(excess) }
    }

    private func trySend(_ message: RelayMessage) -> Bool {
        guard let socket else { return false }
        if kind == .router {
            guard let peer else { return false }
            return (try? socket.send([peer] + message.frames, wait: false)) ?? false
        }
        return (try? socket.send(message.frames, wait: false)) ?? false
    }
}
