import ServiceLifecycle

/// The bridge as a swift-service-lifecycle `Service` that owns its whole life: it starts the bridge,
/// lets commands in flight finish on graceful shutdown, stops at once on cancellation (what is in flight
/// stays in the journal for the next start), and throws when the bridge cannot start or its loop fails,
/// so the process ends instead of running without a bridge.
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
        let bound: BoundEndpoints
        do {
            bound = try bridge.start()
        } catch {
            throw BridgeServiceError(.startFailed, underlying: error)
        }
        onStart(bound)
        let bridge = bridge
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await bridge.waitAsync()
            } onGracefulShutdown: {
                bridge.shutdown()
            }
        } onCancel: {
            bridge.requestHalt()
        }
        if let failure = bridge.failure { throw BridgeServiceError(.loopFailed, underlying: failure) }
    }
}
