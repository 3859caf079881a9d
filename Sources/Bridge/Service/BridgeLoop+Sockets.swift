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

    /// Makes the link of every configured lane and watches it, at start.
    func openConfiguredLinks() throws {
        for lane in configuration.lanes {
            let link = try makeLink(lane)
            links.add(link)
            try watch(link)
        }
    }

    /// Makes the link of `lane` (not watched yet).
    func makeLink(_ lane: LaneConfiguration) throws -> LaneLink {
        try LaneLink(
            context: context, lane: lane, security: configuration.security,
            heartbeatIntervalMs: configuration.heartbeatIntervalMs,
            heartbeatTimeoutMs: configuration.heartbeatTimeoutMs)
    }

    /// Watches a lane's link and its monitor: the link's messages go to the correlator, at most
    /// ``drainLimit`` a turn, and the monitor says when it came up or dropped.
    func watch(_ link: LaneLink) throws {
        let socket = link.socket
        try sockets.watch(socket, stage: .link) { [unowned self] in
            drain(socket) { correlator.receiveFromRelay(lane: link.lane, frames: $0) }
        }
        try sockets.watch(link.monitor, stage: .monitor) { [unowned self] in readMonitor(link) }
    }

    /// ``watch(_:)``, or an error line when the link cannot be watched (the lane then stays down, for
    /// nothing it receives is read). Returns whether it is watched.
    @discardableResult
    func watchOrLog(_ link: LaneLink) -> Bool {
        do {
            try watch(link)
            return true
        } catch {
            unwatch(link)
            logger.error(
                "the link to a lane's relay cannot be watched; the lane stays down until a restart, or a reload that changes it",
                metadata: ["lane": "\(link.lane)", "error": "\(error)"])
            return false
        }
    }

    /// Reads all that a link's socket still holds, before the link is made anew or closed: a callback in it
    /// is still a result.
    func readWhatRemains(_ link: LaneLink) {
        while let frames = try? link.socket.receive(wait: false) {
            correlator.receiveFromRelay(lane: link.lane, frames: frames)
        }
    }

    /// Stops watching a lane's link and its monitor, before they are closed.
    func unwatch(_ link: LaneLink) {
        sockets.unwatch(link.socket)
        sockets.unwatch(link.monitor)
    }

    /// Sends frames to a lane's relay without blocking; false when the lane has no link or the link
    /// cannot take them. The link is asked again before the next wait: a send can consume its signal.
    func sendToRelay(_ lane: String, _ frames: [[UInt8]]) -> Bool {
        guard let link = links[lane] else { return false }
        sockets.touched(link.socket)
        return link.send(frames)
    }
}
