import Bridge
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// The bridge's HTTP listener (docs/OPERATIONS.md, "HTTP"): `/healthz`, `/readyz`, `/metrics`,
/// `/events` and the lanes page `/`, on Hummingbird, as a swift-service-lifecycle `Service` that runs
/// in the same group as the ``BridgeService``.
///
/// It only reads what the bridge's loop publishes (atomics, the metrics registry, the event tap); the
/// loop never waits on it.
public struct HTTPListener: Service {
    private let bridge: Bridge
    private let address: HTTPAddress
    private let hosts: [String]
    private let limits: HTTPLimits
    private let logger: Logger
    private let onListening: @Sendable (HTTPAddress) -> Void

    /// A listener for `bridge` on `address`, answering requests whose `Host` names it, a loopback name
    /// or one of `hosts` (`httpHosts`), within `limits`; `onListening` hears the address it bound (the real
    /// port when `address.port` is 0).
    public init(
        bridge: Bridge, address: HTTPAddress, hosts: [String] = [], limits: HTTPLimits = HTTPLimits(),
        logger: Logger, onListening: @escaping @Sendable (HTTPAddress) -> Void = { _ in }
    ) {
        self.bridge = bridge
        self.address = address
        self.hosts = hosts
        self.limits = limits
        self.logger = logger
        self.onListening = onListening
    }

    public func run() async throws {
        let hub = EventHub(bridge: bridge, logger: logger, limits: limits)
        let router = Router(context: ListenerContext.self)
        router.add(middleware: HostCheck(address: address, hosts: hosts, metrics: bridge.metrics.http))
        HTTPRoutes(bridge: bridge, hub: hub, viewerCloseGrace: limits.viewerCloseGrace).add(to: router)
        let gate = ConnectionGateState(limits: limits, metrics: bridge.metrics.http, logger: logger)
        let listening = Atomic<Bool>(false)
        let address = address
        let logger = logger
        let onListening = onListening
        // Hummingbird logs each request at debug and its start at info: this listener's own logger shows
        // only its warnings. The level is this copy's alone (it must never quieten the process's log).
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .warning)
        let app = Application(
            router: router,
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [RequestDeadline(limits: limits)],
                    idleTimeout: TimeAmount(limits.idleTimeout))),
            configuration: .init(
                address: .hostname(address.host, port: address.port),
                availableConnectionsDelegate: ConnectionGate(state: gate)),
            onServerRunning: { channel in
                listening.store(true, ordering: .relaxed)
                Self.reopenWhenFree(channel, gate: gate)
                let bound = HTTPAddress(host: address.host, port: channel.localAddress?.port ?? address.port)
                logger.info(
                    "http listening",
                    metadata: [
                        "address": "\(bound)", "maxConnections": "\(gate.maxConnections)",
                        "descriptorLimit": "\(gate.descriptorLimit)", "descriptorReserve": "\(gate.reserve)",
                    ])
                onListening(bound)
            }, logger: quiet)
        do {
            try await withGracefulShutdownHandler {
                try await app.run()
            } onGracefulShutdown: {
                hub.close()
            }
        } catch {
            hub.close()
            if listening.load(ordering: .relaxed) { throw error }
            throw HTTPListenerError(address: address, cause: error)
        }
        hub.close()
    }

    /// Each second while the gate refuses, asks the server channel to accept again: Hummingbird asks the
    /// gate again only when one of its connections closes, and a gate closed for want of descriptors (taken
    /// by the bridge's own sockets) may have none of its own to close.
    private static func reopenWhenFree(_ channel: any Channel, gate: ConnectionGateState) {
        channel.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { task in
            guard channel.isActive else {
                task.cancel()
                return
            }
            if gate.isRefusing { channel.read() }
        }
    }
}

/// The HTTP listener could not bind: names the key, its variable and the cause.
public struct HTTPListenerError: Error, CustomStringConvertible {
    /// The address it tried.
    public let address: HTTPAddress
    /// What NIO said.
    public let cause: any Error

    public var description: String {
        let reason = "\(cause)".contains("Address already in use") ? "address already in use" : "\(cause)"
        return
            "http: \(address): \(reason); set \"http\" or VIVABRIDGE_HTTP (host:port, port 0 for any free port, or off)"
    }
}
