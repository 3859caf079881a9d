import Bridge
import Foundation
import Hummingbird
import Logging
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
    private let logger: Logger
    private let onListening: @Sendable (HTTPAddress) -> Void

    /// A listener for `bridge` on `address`; `onListening` hears the address it bound (the real port
    /// when `address.port` is 0).
    public init(
        bridge: Bridge, address: HTTPAddress, logger: Logger,
        onListening: @escaping @Sendable (HTTPAddress) -> Void = { _ in }
    ) {
        self.bridge = bridge
        self.address = address
        self.logger = logger
        self.onListening = onListening
    }

    public func run() async throws {
        let hub = EventHub(bridge: bridge, logger: logger)
        let router = Router()
        HTTPRoutes(bridge: bridge, hub: hub).add(to: router)
        let listening = Atomic<Bool>(false)
        let address = address
        let logger = logger
        let onListening = onListening
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .warning)
        let app = Application(
            router: router, configuration: .init(address: .hostname(address.host, port: address.port)),
            onServerRunning: { channel in
                listening.store(true, ordering: .relaxed)
                let bound = HTTPAddress(host: address.host, port: channel.localAddress?.port ?? address.port)
                logger.info("http listening", metadata: ["address": "\(bound)"])
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
