import Foundation
import LoopbackPorts
import Testing
import ZeroMQ

/// How long any single wait in these tests may take before the test fails instead of hanging.
let patience: Int32 = 2000

/// The transports a test runs over.
enum Transport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inproc, tcp

    var testDescription: String { rawValue }
}

/// Runs `body` with a fresh context, then terminates the context.
///
/// Every socket made in `body` must be gone when it returns. Termination that takes longer than 2 s (a socket
/// still open, or lingering on unsent messages) is recorded as an issue instead of hanging the run.
func withContext(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (Context) throws -> Void
) throws {
    let context = try Context()
    defer {
        if timed(limit: .seconds(2), { context.terminate() }) == nil {
            Issue.record("the context did not terminate within 2 s", sourceLocation: sourceLocation)
        }
    }
    try body(context)
}

/// Binds `socket` to a fresh endpoint and returns the endpoint a peer connects to.
///
/// TCP binds an ephemeral loopback port (`tcp://127.0.0.1:*`) and reads the real one back from
/// ``Socket/lastEndpoint``; inproc uses a unique name.
func bindFresh(_ socket: Socket, _ transport: Transport) throws -> String {
    switch transport {
    case .inproc:
        let endpoint = "inproc://test-\(UUID().uuidString)"
        try socket.bind(endpoint)
        return endpoint
    case .tcp:
        try socket.bind("tcp://127.0.0.1:*")
        return try socket.lastEndpoint
    }
}

/// A socket whose blocking receives give up after ``patience``, so a broken test fails, never hangs.
func makeSocket(_ context: Context, _ type: SocketType) throws -> Socket {
    let socket = try Socket(context, type)
    try socket.setReceiveTimeout(patience)
    try socket.setSendTimeout(patience)
    return socket
}

/// Frames as UTF-8 text.
func text(_ frames: [[UInt8]]?) -> [String]? {
    frames?.map { String(decoding: $0, as: UTF8.self) }
}

/// Reads events from a socket monitor until the one wanted shows up or the deadline passes.
final class EventWatcher {
    let monitor: Socket
    /// Every event read so far, in order.
    private(set) var seen: [MonitorEvent] = []

    init(_ socket: Socket, events: MonitorEvents = .all) throws {
        monitor = try socket.openMonitor(events: events)
    }

    /// Returns the first unread event that satisfies `matches`, or nil once `milliseconds` have passed.
    @discardableResult
    func next(
        within milliseconds: Int = Int(patience),
        where matches: (MonitorEvent) -> Bool
    ) throws -> MonitorEvent? {
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        let poller = Poller()
        poller.add(monitor)
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            guard try poller.poll(timeoutMilliseconds: max(1, Int(left.milliseconds))) > 0 else { continue }
            while let event = try monitor.receiveMonitorEvent(wait: false) {
                seen.append(event)
                if matches(event) { return event }
            }
        }
    }

    /// Waits for an event of `kind`.
    @discardableResult
    func next(_ kind: MonitorEvent.Kind, within milliseconds: Int = Int(patience)) throws -> MonitorEvent? {
        try next(within: milliseconds) { $0.kind == kind }
    }

    /// The kinds seen so far, for failure messages.
    var seenKinds: [MonitorEvent.Kind] { seen.map(\.kind) }
}

/// Runs `body` on a thread of its own and waits at most `limit` for it.
///
/// - Returns: how long `body` took, or nil when it had not returned by `limit` (the thread is left
///   behind; a test seeing nil fails instead of hanging the whole run).
func timed(limit: Duration, _ body: @escaping @Sendable () -> Void) -> Duration? {
    let done = DispatchSemaphore(value: 0)
    let result = DurationBox()
    let thread = Thread {
        result.value = ContinuousClock().measure(body)
        done.signal()
    }
    thread.start()
    let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    return result.value
}

private final class DurationBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Duration?
    var value: Duration? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

extension Duration {
    /// Whole milliseconds, for messages and comparisons.
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
