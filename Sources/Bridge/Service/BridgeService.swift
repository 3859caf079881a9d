import BridgeCore
import BridgeJournal
import ServiceLifecycle

/// The bridge as a swift-service-lifecycle `Service` that owns its whole life: it starts the bridge,
/// lets commands in flight finish on graceful shutdown, stops at once on cancellation (what is in flight
/// stays in the journal for the next start), and throws when the bridge cannot start or its loop fails,
/// so the process ends instead of running without a bridge.
///
/// With a journal in PostgreSQL the bridge starts as standby and serves only while it holds the journal's
/// lease (``run()``, docs/OPERATIONS.md "Two bridges on one PostgreSQL journal").
public struct BridgeService: Service {
    /// The bridge this service runs.
    public let bridge: Bridge
    let onStart: @Sendable (BoundEndpoints) -> Void
    let onStandby: @Sendable () -> Void

    /// Wraps `bridge`; `onStart` is called each time it listens (with a PostgreSQL journal, at each
    /// activation), `onStandby` once a bridge on a PostgreSQL journal waits as standby the first time.
    public init(
        bridge: Bridge, onStart: @escaping @Sendable (BoundEndpoints) -> Void = { _ in },
        onStandby: @escaping @Sendable () -> Void = {}
    ) {
        self.bridge = bridge
        self.onStart = onStart
        self.onStandby = onStandby
    }

    /// Runs the bridge until a shutdown. With a PostgreSQL journal: standby until it takes the journal's lease,
    /// active while it holds it, standby again when it loses it to another bridge; it throws (the process
    /// exits 1) when the database could not be reached for longer than the lease.
    public func run() async throws {
        if bridge.configuration.journalIsShared {
            let bridge = bridge
            do {
                try await runWithLease()
            } catch {
                _ = try? await Self.offPool { bridge.finish() }
                throw error
            }
            // Off the cooperative pool: ending the ZeroMQ context waits for every socket in it to close.
            _ = try? await Self.offPool { bridge.finish() }
            return
        }
        let bridge = bridge
        let bound: BoundEndpoints
        do {
            // Off the cooperative pool: the journal is opened, checked and migrated here.
            bound = try await Self.offPool { try bridge.start() }
        } catch {
            throw BridgeServiceError(.startFailed, underlying: error)
        }
        onStart(bound)
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
