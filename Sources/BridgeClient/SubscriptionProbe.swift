import InterApp
import ZeroMQ

/// How a subscriber knows its subscription has taken effect. A SUB's subscription reaches the bridge some
/// time after the connection, and nothing says when; a callback that no command uses, injected at a lane,
/// is published as `<lane>.probe.orphan` (harmless: an orphan changes no command). Injecting it until one
/// comes back proves the subscription is in place. For tests and the demo, whose lanes are simulated.
public enum SubscriptionProbe {
    /// The probe callback, as a simulated lane injects it.
    public static let callbackURL = "vivabridge-probe://result?status=success&action=probe"

    /// The topic the bridge publishes the probe under on `lane`.
    public static func topic(lane: String) -> String {
        Topic.command(lane: lane, action: "probe", .orphan).description
    }

    /// Whether `topic` is a probe, on any lane (a late probe is skipped like the others).
    public static func isProbe(_ topic: String) -> Bool {
        guard let parsed = Topic(parsing: topic) else { return false }
        return parsed.subject == "probe" && parsed.commandEvent == .orphan
    }

    /// Calls `inject` (which injects ``callbackURL`` at `lane`) and reads `subscriber` for up to `waitMs`,
    /// `attempts` times, until `lane`'s probe arrives. Other events read meanwhile go to `otherEvent`.
    ///
    /// - Returns: true once the probe came back; false when it never did.
    public static func await(
        on subscriber: Socket, lane: String, attempts: Int = 200, waitMs: Int = 50, inject: () -> Void,
        otherEvent: (_ frames: [[UInt8]]) -> Void = { _ in }
    ) throws -> Bool {
        let expected = Array(topic(lane: lane).utf8)
        let poller = Poller()
        poller.add(subscriber)
        for _ in 0..<attempts {
            inject()
            let deadline = ContinuousClock.now + .milliseconds(waitMs)
            while ContinuousClock.now < deadline {
                _ = try poller.poll(timeoutMilliseconds: (deadline - ContinuousClock.now).wholeMilliseconds)
                while let frames = try subscriber.receive(wait: false) {
                    if frames.count == 2 { ContractRecorder.event(topic: frames[0], body: frames[1]) }
                    if frames.first == expected { return true }
                    if let topic = frames.first, !isProbe(String(decoding: topic, as: UTF8.self)) { otherEvent(frames) }
                }
            }
        }
        return false
    }
}

extension EventSubscription {
    /// Waits until this subscription receives `lane`'s probe (see ``SubscriptionProbe``); `inject`
    /// injects ``SubscriptionProbe/callbackURL`` at that lane; other events read meanwhile go to `otherEvent`.
    public func awaitProbe(
        lane: String, attempts: Int = 200, waitMs: Int = 50, inject: () -> Void,
        otherEvent: (BridgeEvent) -> Void = { _ in }
    ) throws -> Bool {
        try SubscriptionProbe.await(on: socket, lane: lane, attempts: attempts, waitMs: waitMs, inject: inject) {
            if let event = BridgeEvent(frames: $0) { otherEvent(event) }
        }
    }
}
