import BridgeCore
import BridgeJournal
import ZeroMQ

extension BridgeLoop {
    /// The sockets the loop binds for others: the control channel's PAIR, the event tap's PUB, the command
    /// ROUTER, the events XPUB and, when configured, the command PULL.
    struct OwnSockets {
        let control: Socket
        let tap: Socket
        let commands: Socket
        let events: Socket
        let pull: Socket?

        /// Where the bridge listens (real ports for `*` endpoints).
        func bound() throws -> BoundEndpoints {
            BoundEndpoints(
                command: try commands.lastEndpoint, events: try events.lastEndpoint,
                commandPull: try pull?.lastEndpoint)
        }

        /// Closes each of them.
        func close() {
            for socket in [commands, events, tap, control] { socket.close() }
            pull?.close()
        }
    }

    /// Makes and binds the loop's own sockets (``OwnSockets``), each with its options and security.
    /// - Throws: a ``BindError`` naming an endpoint that cannot be bound, or a ``ZMQError``.
    static func bindOwnSockets(
        context: Context, configuration: BridgeConfiguration, controlEndpoint: String, tapEndpoint: String
    ) throws -> OwnSockets {
        let control = try Socket(context, .pair)
        try control.bind(controlEndpoint)
        let tap = try Socket(context, .pub)
        try tap.setSendHighWaterMark(eventsPerSubscriber)
        try tap.bind(tapEndpoint)
        return OwnSockets(
            control: control, tap: tap, commands: try commandSocket(context, configuration),
            events: try eventsSocket(context, configuration),
            pull: try configuration.commandPull.map { try pullSocket(context, configuration, endpoint: $0) })
    }

    /// The command ROUTER, bound at `command`.
    private static func commandSocket(_ context: Context, _ configuration: BridgeConfiguration) throws -> Socket {
        let socket = try Socket(context, .router)
        try secure(socket, configuration.security, role: .commands)
        try socket.setRouterMandatory(true)
        try socket.setMaxMessageSize(socketMessageLimit(configuration))
        try socket.setReceiveHighWaterMark(10_000)
        try socket.setSendHighWaterMark(10_000)
        try bind(socket, configuration.command, key: "command")
        return socket
    }

    /// The events XPUB, bound at `events`.
    private static func eventsSocket(_ context: Context, _ configuration: BridgeConfiguration) throws -> Socket {
        let socket = try Socket(context, .xpub)
        try secure(socket, configuration.security, role: .events)
        try socket.setSendHighWaterMark(eventsPerSubscriber)
        try bind(socket, configuration.events, key: "events")
        return socket
    }

    /// The command PULL, bound at `commandPull` (`endpoint`).
    private static func pullSocket(
        _ context: Context, _ configuration: BridgeConfiguration, endpoint: String
    ) throws -> Socket {
        let socket = try Socket(context, .pull)
        try secure(socket, configuration.security, role: .commands)
        try socket.setMaxMessageSize(socketMessageLimit(configuration))
        try socket.setReceiveHighWaterMark(10_000)
        try bind(socket, endpoint, key: "commandPull")
        return socket
    }

    /// Binds `socket`, or throws a ``BindError`` naming the endpoint, the key that set it and its variable.
    private static func bind(_ socket: Socket, _ endpoint: String, key: String) throws {
        do {
            try socket.bind(endpoint)
        } catch {
            throw BindError(key: key, endpoint: endpoint, cause: error)
        }
    }

    /// What the command sockets let through: well above `maxCommandBytes`, so that a command a little
    /// too large reaches the decoder and gets its `too_large` reply; libzmq drops only a connection that
    /// sends a frame past this (16 times the limit, and at least 1 MiB more).
    static func socketMessageLimit(_ configuration: BridgeConfiguration) -> Int64 {
        let limit = Int64(configuration.maxCommandBytes)
        return max(limit * 16, limit + (1 << 20))
    }

    /// Watches the loop's own sockets: the journal writer's reports and the control words first, then the
    /// events socket's subscriptions and the commands.
    func watchOwnSockets() throws {
        try sockets.watch(writer.wake, stage: .control) { [unowned self] in collectCommits() }
        try sockets.watch(own.control, stage: .control) { [unowned self] in readControl() }
        try sockets.watch(own.events) { [unowned self] in readSubscriptions() }
        try sockets.watch(own.commands) { [unowned self] in readCommands() }
        if let pull = own.pull { try sockets.watch(pull) { [unowned self] in readPull(pull) } }
    }

    /// Links every configured lane, at start.
    func openConfiguredLinks() throws {
        for lane in configuration.lanes { try open(lane) }
    }

    /// Links `lane`, and watches its router when the link made it: what the router reads goes to the
    /// correlator, what its monitor says to ``readMonitor(_:)``.
    func open(_ lane: LaneConfiguration) throws {
        guard lane.relayEndpoint != nil else {
            // A cloud lane has no link of its own: Viva's cloud is its link (``CloudLanes``).
            correlator.cloudLaneOpened(lane.id)
            observeLink(lane.id)
            return
        }
        guard let router = try links.open(lane).newRouter else { return }
        try sockets.watch(router.socket, stage: .link) { [unowned self] in readRelays(router) }
        try sockets.watch(router.monitor, stage: .monitor) { [unowned self] in readMonitor(router) }
    }

    /// The most relay messages read from a lanes' router in one turn: every lane's messages come through
    /// it, so it reads more than another socket (``drainLimit``).
    static let relayDrainLimit = drainLimit * 4

    /// Reads at most ``relayDrainLimit`` messages a lanes' router received, each to the correlator as its
    /// lane's (the routing id says which).
    func readRelays(_ router: LaneRouter) {
        for _ in 0..<Self.relayDrainLimit {
            guard let message = receiveOrNoteDrained(router.socket, { try $0.receiveRouted(wait: false) }) else {
                return
            }
            takeFromRelay(message)
        }
    }

    /// Reads all that a lanes' router still holds, before one of its links is made anew or closed: a
    /// callback in it is still a result.
    func readWhatRemains(_ router: LaneRouter) {
        while let message = try? router.socket.receiveRouted(wait: false) { takeFromRelay(message) }
        sockets.touched(router.socket)
    }

    /// One message a lanes' router received: its routing id names the link, the rest is the relay's. A
    /// message that brought the lane up (the relay's answer to `hello`) is published to `/readyz`.
    private func takeFromRelay(_ message: (routingId: [UInt8], frames: [[UInt8]])) {
        guard !message.frames.isEmpty, let link = links.link(routingId: message.routingId) else { return }
        if correlator.receiveFromRelay(lane: link.lane, frames: message.frames) { observeLink(link.lane) }
    }

    /// Sends frames to a lane's relay without blocking; false when the lane has no link or the link
    /// cannot take them. The router is asked again before the next wait: a send can consume its signal.
    func sendToRelay(_ lane: String, _ frames: [[UInt8]]) -> Bool {
        guard let link = links[lane] else { return false }
        sockets.touched(link.router.socket)
        return link.send(frames)
    }
}
