import BridgeCore
import CoreMetrics
import InterApp
import Prometheus
import Synchronization

/// The bridge's Prometheus metrics (docs/OPERATIONS.md, "Metrics"): counters and gauges through
/// swift-metrics into a swift-prometheus registry of the bridge's own, histograms of its own, all
/// updated without a lock the loop could wait on, and read by a scrape at any time.
public final class BridgeMetrics: Sendable {
    /// The actions `vivabridge_commands_total` and the duration histogram name; any other is `other`.
    static let actions: [String] = TerminalAction.allCases.map(\.rawValue) + ["ping", "lanes", "status", "resolve"]
    /// Upper bounds of `vivabridge_command_duration_seconds`: from a query's microseconds to a sale's minutes.
    static let commandBounds: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]
    /// Upper bounds of `vivabridge_journal_commit_seconds`.
    static let commitBounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]

    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// `vivabridge_lane_up` by lane, with the transport it is labelled with. Taken only when a link goes up
    /// or down or a reload adds, changes or removes a lane, never per command.
    private let laneUp: Mutex<[String: LaneGauge]>
    package let inFlight: CoreMetrics.Gauge
    package let unknownUnresolved: CoreMetrics.Gauge
    /// `vivabridge_active`: 1 while this bridge serves, 0 while it starts, waits as standby or has stopped.
    package let active: CoreMetrics.Gauge
    package let eventsPublished: CoreMetrics.Counter
    package let clientsRefused: CoreMetrics.Counter
    /// `vivabridge_callbacks_total` by kind.
    package let callbacks: [CallbackKind: CoreMetrics.Counter]
    /// `vivabridge_replies_undelivered_total` by reason.
    package let repliesUndelivered: [UndeliveredReplyReason: CoreMetrics.Counter]
    package let commandDurations: [String: AtomicHistogram]
    package let journalCommit = AtomicHistogram(bounds: BridgeMetrics.commitBounds)
    /// The HTTP listener's own figures; the listener sets them, the bridge's loop never does.
    public let http: HTTPListenerMetrics

    /// One lane's `vivabridge_lane_up{lane,transport}`.
    private struct LaneGauge {
        var transport: LaneTransport.Kind
        var gauge: CoreMetrics.Gauge
    }

    /// Metrics for a bridge serving relay lanes `lanes` (ids, in configuration order).
    public convenience init(lanes: [String]) {
        self.init(lanes: lanes.map { ($0, .relay) })
    }

    /// Metrics for a bridge serving `lanes` (ids and transports, in configuration order): each lane's
    /// `lane_up` is 0 from the start.
    public init(lanes: [(id: String, transport: LaneTransport.Kind)]) {
        factory = PrometheusMetricsFactory(registry: registry)
        let factory = factory
        var gauges: [String: LaneGauge] = [:]
        for lane in lanes { gauges[lane.id] = Self.laneGauge(lane.id, lane.transport, factory: factory) }
        laneUp = Mutex(gauges)
        inFlight = CoreMetrics.Gauge(label: "vivabridge_commands_in_flight", factory: factory)
        inFlight.record(0)
        unknownUnresolved = CoreMetrics.Gauge(label: "vivabridge_unknown_unresolved", factory: factory)
        unknownUnresolved.record(0)
        active = CoreMetrics.Gauge(label: "vivabridge_active", factory: factory)
        active.record(0)
        eventsPublished = CoreMetrics.Counter(label: "vivabridge_events_published_total", factory: factory)
        clientsRefused = CoreMetrics.Counter(label: "vivabridge_clients_refused_total", factory: factory)
        callbacks = Dictionary(
            uniqueKeysWithValues: CallbackKind.allCases.map {
                (
                    $0,
                    CoreMetrics.Counter(
                        label: "vivabridge_callbacks_total", dimensions: [("kind", $0.rawValue)], factory: factory)
                )
            })
        repliesUndelivered = Dictionary(
            uniqueKeysWithValues: UndeliveredReplyReason.allCases.map {
                (
                    $0,
                    CoreMetrics.Counter(
                        label: "vivabridge_replies_undelivered_total", dimensions: [("reason", $0.rawValue)],
                        factory: factory)
                )
            })
        commandDurations = Dictionary(
            uniqueKeysWithValues: (Self.actions + ["other"]).map { ($0, AtomicHistogram(bounds: Self.commandBounds)) })
        http = HTTPListenerMetrics(factory: factory)
    }

    private static func laneGauge(
        _ lane: String, _ transport: LaneTransport.Kind, factory: PrometheusMetricsFactory
    ) -> LaneGauge {
        let gauge = CoreMetrics.Gauge(
            label: "vivabridge_lane_up", dimensions: [("lane", lane), ("transport", transport.rawValue)],
            factory: factory)
        gauge.record(0)
        return LaneGauge(transport: transport, gauge: gauge)
    }

    /// Sets `lane`'s `vivabridge_lane_up` (a lane a reload added gets its sample here, 0 until it is up; one
    /// whose transport a reload changed is labelled anew).
    package func setLaneUp(_ lane: String, _ up: Bool, transport: LaneTransport.Kind) {
        let factory = factory
        laneUp.withLock { gauges in
            var entry = gauges[lane]
            if let stale = entry, stale.transport != transport {
                stale.gauge.destroy()
                entry = nil
            }
            let gauge = entry ?? Self.laneGauge(lane, transport, factory: factory)
            gauges[lane] = gauge
            gauge.gauge.record(up ? 1 : 0)
        }
    }

    /// Drops the sample of a lane a reload removed.
    package func removeLane(_ lane: String) {
        laneUp.withLock { gauges in gauges.removeValue(forKey: lane)?.gauge.destroy() }
    }

    /// The counter of commands answered with `outcome` (and `code`, for `rejected`). It takes the
    /// registry's lock the first time a combination is asked for: the loop keeps what it gets
    /// (``LoopMetrics``), so that happens once per combination, not per command.
    package func commandCounter(action: String, outcome: String, code: String?) -> CoreMetrics.Counter {
        var dimensions = [("action", action), ("outcome", outcome)]
        if let code { dimensions.append(("code", code)) }
        return CoreMetrics.Counter(label: "vivabridge_commands_total", dimensions: dimensions, factory: factory)
    }

    /// The metrics in Prometheus's text format (version 0.0.4).
    public func render() -> String {
        var text = registry.emitToString()
        text += "# TYPE vivabridge_command_duration_seconds histogram\n"
        for action in Self.actions + ["other"] {
            commandDurations[action]?.render(
                name: "vivabridge_command_duration_seconds", labels: "action=\"\(action)\"", into: &text)
        }
        text += "# TYPE vivabridge_journal_commit_seconds histogram\n"
        journalCommit.render(name: "vivabridge_journal_commit_seconds", labels: "", into: &text)
        return text
    }

    /// `vivabridge_cloud_requests_total{call,code}`: one HTTP exchange with Viva's cloud (`code` the HTTP
    /// status, or `none` when no answer came). Called off the loop, by the cloud client's observer.
    package func cloudRequest(call: String, status: Int?) {
        CoreMetrics.Counter(
            label: "vivabridge_cloud_requests_total",
            dimensions: [("call", call), ("code", status.map(String.init) ?? "none")], factory: factory
        ).increment()
    }

    /// `vivabridge_cloud_lookups_total{result}`: an unknown command looked up in Viva's records, by what was
    /// found (``VivaVerdict/label``, or `error` when Viva could not be asked).
    package func cloudLookup(result: String) {
        CoreMetrics.Counter(
            label: "vivabridge_cloud_lookups_total", dimensions: [("result", result)], factory: factory
        ).increment()
    }

    /// The label an action is counted under: a known action's name, else `other`.
    package static func actionLabel(_ action: String?) -> String {
        guard let action, actions.contains(action) else { return "other" }
        return action
    }
}

/// What the HTTP listener reports in `/metrics` (docs/OPERATIONS.md, "Metrics"): its connections, its
/// `/events` viewers and what they have waiting, the viewers it dropped or refused, and the requests it
/// refused for their `Host`. Every sample exists from the start, at 0.
public final class HTTPListenerMetrics: Sendable {
    private let connections: CoreMetrics.Gauge
    private let viewers: CoreMetrics.Gauge
    private let viewerBytes: CoreMetrics.Gauge
    private let viewersDropped: CoreMetrics.Counter
    private let viewersRefused: CoreMetrics.Counter
    private let misdirected: CoreMetrics.Counter

    init(factory: PrometheusMetricsFactory) {
        connections = CoreMetrics.Gauge(label: "vivabridge_http_connections", factory: factory)
        viewers = CoreMetrics.Gauge(label: "vivabridge_http_viewers", factory: factory)
        viewerBytes = CoreMetrics.Gauge(label: "vivabridge_http_viewer_buffered_bytes", factory: factory)
        viewersDropped = CoreMetrics.Counter(label: "vivabridge_http_viewers_dropped_total", factory: factory)
        viewersRefused = CoreMetrics.Counter(label: "vivabridge_http_viewers_refused_total", factory: factory)
        misdirected = CoreMetrics.Counter(label: "vivabridge_http_misdirected_total", factory: factory)
        for gauge in [connections, viewers, viewerBytes] { gauge.record(0) }
    }

    /// `vivabridge_http_connections`: connections open now.
    public func setConnections(_ count: Int) { connections.record(count) }

    /// `vivabridge_http_viewers` and `vivabridge_http_viewer_buffered_bytes`: `/events` viewers now, and the
    /// bytes waiting for them (each viewer's, summed).
    public func setViewers(_ count: Int, bufferedBytes: Int) {
        viewers.record(count)
        viewerBytes.record(bufferedBytes)
    }

    /// `vivabridge_http_viewers_dropped_total`: a viewer dropped for reading too slowly.
    public func viewerDropped() { viewersDropped.increment() }

    /// `vivabridge_http_viewers_refused_total`: a viewer refused because the most were following.
    public func viewerRefused() { viewersRefused.increment() }

    /// `vivabridge_http_misdirected_total`: a request answered 421 for its `Host`.
    public func requestMisdirected() { misdirected.increment() }
}
