import Bridge
import Hummingbird
import InterApp

/// The listener's paths; each answers from what the bridge published, never by asking its loop.
struct HTTPRoutes: Sendable {
    /// How long the loop may go without turning before `/healthz` says 503.
    static let stallMs = 5000

    let bridge: Bridge
    let hub: EventHub

    func add(to router: Router<BasicRequestContext>) {
        let bridge = bridge
        let hub = hub
        router.get("/healthz") { _, _ in Self.health(bridge) }
        router.get("/readyz") { _, _ in Self.readiness(bridge) }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: bridge.metrics.render())))
        }
        router.get("/events") { _, _ in
            guard let stream = hub.subscribe() else {
                return Self.json(.serviceUnavailable, ["status": .string("the bridge is not running")])
            }
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/event-stream", .cacheControl: "no-cache", .init("X-Accel-Buffering")!: "no",
                ],
                body: .init(asyncSequence: stream))
        }
        router.get("/") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                body: .init(byteBuffer: ByteBuffer(string: LanesPage.html)))
        }
    }

    /// 200 `{"status":"ok","epoch":N}` while the loop turns; 503 once it has not for ``stallMs``.
    static func health(_ bridge: Bridge) -> Response {
        let epoch = JSONValue.number(JSONNumber(bridge.live.epoch))
        if bridge.isResponsive(withinMilliseconds: stallMs) {
            return json(.ok, ["status": .string("ok"), "epoch": epoch])
        }
        let phase = bridge.live.phase
        let status = phase == .ready || phase == .draining ? "stalled" : phase.name
        return json(.serviceUnavailable, ["status": .string(status), "epoch": epoch])
    }

    /// 200 with every lane's link once the bridge is bound with its journal open; 503 while it starts,
    /// drains or has stopped (`status` says which).
    static func readiness(_ bridge: Bridge) -> Response {
        let live = bridge.live
        let phase = live.phase
        let lanes = JSONObject(live.lanes.map { ($0.id, JSONValue.string($0.up ? "up" : "down")) })
        if phase == .ready { return json(.ok, ["lanes": .object(lanes)]) }
        return json(.serviceUnavailable, ["status": .string(phase.name), "lanes": .object(lanes)])
    }

    static func json(_ status: HTTPResponse.Status, _ object: JSONObject) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: JSONValue.object(object).serialized() + [10])))
    }
}
