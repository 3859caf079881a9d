import Bridge
import Hummingbird
import InterApp
import NIOCore

/// The listener's paths; each answers from what the bridge published, never by asking its loop.
struct HTTPRoutes: Sendable {
    /// How long the loop (on a standby, its wait for the lease) may go without turning before `/healthz` says 503.
    static let stallMs = 5000

    let bridge: Bridge
    let hub: EventHub
    /// How long a dropped `/events` viewer's connection (at shutdown, any viewer's) stays open for its last write.
    let viewerCloseGrace: Duration

    func add(to router: Router<ListenerContext>) {
        let bridge = bridge
        let hub = hub
        let grace = TimeAmount(viewerCloseGrace)
        router.get("/healthz") { _, _ in Self.health(bridge) }
        router.get("/readyz") { _, _ in Self.readiness(bridge) }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: bridge.metrics.render())))
        }
        router.get("/events") { request, context in
            let filter: TopicPrefixes?
            do throws(QueryRefusal) {
                filter = try Self.eventFilter(request.uri.queryParameters)
            } catch {
                return Self.json(.badRequest, ["error": .string(error.message)])
            }
            let channel = context.channel
            let subscription = hub.subscribe(filter: filter) {
                _ = channel.eventLoop.scheduleTask(in: grace) { channel.close(promise: nil) }
            }
            let viewer: ViewerLease
            switch subscription {
            case .viewer(let lease):
                viewer = lease
            case .stopped where bridge.live.role == .standby:
                return Self.json(
                    .serviceUnavailable,
                    [
                        "status": .string("this bridge is standby: the active bridge serves the events"),
                        "role": "standby",
                    ])
            case .stopped:
                return Self.json(.serviceUnavailable, ["status": .string("the bridge is not running")])
            case .full(let most):
                return Self.json(
                    .serviceUnavailable,
                    ["status": .string("\(most) viewers are following /events, the most taken; try again later")])
            }
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/event-stream", .cacheControl: "no-cache", .init("X-Accel-Buffering")!: "no",
                ],
                body: ResponseBody { writer in
                    while let buffer = await viewer.next() { try await writer.write(buffer) }
                    try await writer.finish(nil)
                })
        }
        router.get("/") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                body: .init(byteBuffer: ByteBuffer(string: LanesPage.html)))
        }
    }

    /// The most `topic` prefixes one `/events` viewer may give, and the longest (bytes).
    static let maxTopicPrefixes = 64
    static let maxTopicPrefixBytes = 256

    /// Why an `/events` query was refused, as its 400 answer says.
    struct QueryRefusal: Error {
        let message: String
    }

    /// The topics `/events?topic=P&topic=Q` follows: those the prefixes take (as a SUB socket's), nil
    /// for every event (no `topic`, or an empty one). Any other parameter is refused, so that a misspelt
    /// filter does not quietly stream everything.
    static func eventFilter(_ query: Parameters) throws(QueryRefusal) -> TopicPrefixes? {
        let usage = "/events takes topic=PREFIX, once per prefix (an event is sent when its topic starts with one)"
        if let other = query.first(where: { $0.key != "topic" }) {
            throw QueryRefusal(message: "unknown parameter \"\(other.key)\"; \(usage)")
        }
        let prefixes = query.getAll("topic")
        guard !prefixes.isEmpty else { return nil }
        guard prefixes.count <= maxTopicPrefixes else {
            throw QueryRefusal(message: "\(prefixes.count) topic prefixes; at most \(maxTopicPrefixes) are taken")
        }
        if let long = prefixes.first(where: { $0.utf8.count > maxTopicPrefixBytes }) {
            throw QueryRefusal(
                message: "a topic prefix of \(long.utf8.count) bytes; at most \(maxTopicPrefixBytes) are taken")
        }
        let filter = TopicPrefixes(prefixes)
        return filter.takesEverything ? nil : filter
    }

    /// 200 `{"status":"ok","epoch":N}` while the loop turns, `{"status":"standby","epoch":N}` while a standby's
    /// wait for the lease turns (N its last epoch, 0 before it served); 503 once neither has turned for
    /// ``stallMs`` (`stalled`), or `starting`/`stopped` before the loop runs and after it ended. Liveness only:
    /// whether to send commands here is `/readyz`'s.
    static func health(_ bridge: Bridge) -> Response {
        let live = bridge.live
        let epoch = JSONValue.number(JSONNumber(live.epoch))
        let standby = live.role == .standby
        if bridge.isResponsive(withinMilliseconds: stallMs) {
            return json(.ok, ["status": .string(standby ? LiveState.Role.standby.name : "ok"), "epoch": epoch])
        }
        let status: String
        switch live.phase {
        case .ready, .draining: status = "stalled"
        case .starting where standby: status = "stalled"
        case let phase: status = phase.name
        }
        return json(.serviceUnavailable, ["status": .string(status), "epoch": epoch])
    }

    /// 200 with every lane's link once the bridge is bound with its journal open; 503 while it starts,
    /// drains or has stopped (`status` says which), and on a standby (`status` and `role` `standby`). Each
    /// answer names the bridge's `role` and `instance`.
    static func readiness(_ bridge: Bridge) -> Response {
        let live = bridge.live
        let phase = live.phase
        let role = live.role
        let lanes = JSONObject(live.lanes.map { ($0.id, JSONValue.string($0.up ? "up" : "down")) })
        var body: JSONObject = [
            "role": .string(role.name), "instance": .string(live.instance), "lanes": .object(lanes),
        ]
        if role == .standby {
            body["status"] = .string(role.name)
            return json(.serviceUnavailable, body)
        }
        body["epoch"] = .number(JSONNumber(live.epoch))
        if phase == .ready { return json(.ok, body) }
        body["status"] = .string(phase.name)
        return json(.serviceUnavailable, body)
    }

    static func json(_ status: HTTPResponse.Status, _ object: JSONObject) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: JSONValue.object(object).serialized() + [10])))
    }
}
