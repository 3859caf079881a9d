import ServiceLifecycle

/// The bridge as a swift-service-lifecycle `Service`: it starts the bridge, and on graceful shutdown
/// (SIGTERM, SIGINT in a `ServiceGroup`) lets commands in flight finish before returning.
public struct BridgeService: Service {
    /// The bridge this service runs.
    public let bridge: Bridge
    private let onStart: @Sendable (BoundEndpoints) -> Void

    /// Wraps `bridge`; `onStart` is called once it listens.
    public init(bridge: Bridge, onStart: @escaping @Sendable (BoundEndpoints) -> Void = { _ in }) {
        self.bridge = bridge
        self.onStart = onStart
    }

    public func run() async throws {
        let bound = try bridge.start()
        onStart(bound)
        await withGracefulShutdownHandler {
            await bridge.waitAsync()
        } onGracefulShutdown: {
            bridge.shutdown()
        }
        if let failure = bridge.failure { throw failure }
    }
}
