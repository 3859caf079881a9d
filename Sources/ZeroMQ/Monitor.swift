import CZeroMQ
import Synchronization

/// One event of a socket monitor (`zmq_socket_monitor`), as a Swift value.
public struct MonitorEvent: Sendable, Equatable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        case connected, connectDelayed, connectRetried, listening, bindFailed
        case accepted, acceptFailed, closed, closeFailed, disconnected, monitorStopped
        case handshakeFailedNoDetail, handshakeSucceeded, handshakeFailedProtocol, handshakeFailedAuth
        case other(UInt16)

        init(_ raw: UInt16) {
            switch Int32(raw) {
            case ZMQ_EVENT_CONNECTED: self = .connected
            case ZMQ_EVENT_CONNECT_DELAYED: self = .connectDelayed
            case ZMQ_EVENT_CONNECT_RETRIED: self = .connectRetried
            case ZMQ_EVENT_LISTENING: self = .listening
            case ZMQ_EVENT_BIND_FAILED: self = .bindFailed
            case ZMQ_EVENT_ACCEPTED: self = .accepted
            case ZMQ_EVENT_ACCEPT_FAILED: self = .acceptFailed
            case ZMQ_EVENT_CLOSED: self = .closed
            case ZMQ_EVENT_CLOSE_FAILED: self = .closeFailed
            case ZMQ_EVENT_DISCONNECTED: self = .disconnected
            case ZMQ_EVENT_MONITOR_STOPPED: self = .monitorStopped
            case ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL: self = .handshakeFailedNoDetail
            case ZMQ_EVENT_HANDSHAKE_SUCCEEDED: self = .handshakeSucceeded
            case ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL: self = .handshakeFailedProtocol
            case ZMQ_EVENT_HANDSHAKE_FAILED_AUTH: self = .handshakeFailedAuth
            default: self = .other(raw)
            }
        }

        /// True for the three kinds of failed handshake.
        public var isHandshakeFailure: Bool {
            switch self {
            case .handshakeFailedNoDetail, .handshakeFailedProtocol, .handshakeFailedAuth: true
            default: false
            }
        }
    }

    /// What happened.
    public let kind: Kind
    /// The event's value: a file descriptor, an `errno`, or a reconnect interval, by kind.
    public let value: UInt32
    /// The endpoint the event concerns.
    public let endpoint: String

    /// Parses the two frames a monitor socket delivers; nil when they are not a monitor event.
    public init?(frames: [[UInt8]]) {
        guard frames.count == 2, frames[0].count == 6 else { return nil }
        let head = frames[0]
        let raw = UInt16(head[0]) | UInt16(head[1]) << 8
        kind = Kind(raw)
        value = UInt32(head[2]) | UInt32(head[3]) << 8 | UInt32(head[4]) << 16 | UInt32(head[5]) << 24
        endpoint = String(decoding: frames[1], as: UTF8.self)
    }

    public var description: String { "\(kind) \(endpoint) (\(value))" }
}

/// Which monitor events to report.
public struct MonitorEvents: OptionSet, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let connected = MonitorEvents(rawValue: ZMQ_EVENT_CONNECTED)
    public static let accepted = MonitorEvents(rawValue: ZMQ_EVENT_ACCEPTED)
    public static let disconnected = MonitorEvents(rawValue: ZMQ_EVENT_DISCONNECTED)
    /// A connect attempt failed (refused, unreachable) and will be retried.
    public static let connectRetried = MonitorEvents(rawValue: ZMQ_EVENT_CONNECT_RETRIED)
    public static let closed = MonitorEvents(rawValue: ZMQ_EVENT_CLOSED)
    public static let handshakeSucceeded = MonitorEvents(rawValue: ZMQ_EVENT_HANDSHAKE_SUCCEEDED)
    public static let handshakeFailed = MonitorEvents(
        rawValue: ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL
            | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH)
    public static let all = MonitorEvents(rawValue: ZMQ_EVENT_ALL)
}

private let monitorNames = MonitorNameSource()

private final class MonitorNameSource: Sendable {
    private let next = Atomic<Int>(0)
    func make() -> String {
        let number = next.add(1, ordering: .relaxed).newValue
        return "inproc://zeromq-monitor-\(number)"
    }
}

extension Socket {
    /// Starts a monitor on this socket and returns the PAIR socket its events arrive on.
    ///
    /// The returned socket belongs to the caller's thread like any other; receive from it and parse
    /// each message with ``MonitorEvent/init(frames:)``.
    public func openMonitor(events: MonitorEvents = .all) throws(ZMQError) -> Socket {
        let handle = try liveHandle("monitor")
        let endpoint = monitorNames.make()
        try check(zmq_socket_monitor(handle, endpoint, events.rawValue), "monitor \(endpoint)")
        let pair = try Socket(context, .pair)
        try pair.connect(endpoint)
        return pair
    }

    /// Stops the monitor ``openMonitor(events:)`` started: no event is sent after it returns. Call it before
    /// closing the monitor's PAIR while this socket lives on (libzmq sends monitor events from its I/O
    /// thread, to a reader that may be gone).
    public func stopMonitor() throws(ZMQError) {
        let handle = try liveHandle("stop monitor")
        try check(zmq_socket_monitor(handle, nil, 0), "stop monitor")
    }

    /// Receives the next monitor event from a socket made by ``openMonitor(events:)``.
    public func receiveMonitorEvent(wait: Bool = true) throws(ZMQError) -> MonitorEvent? {
        guard let frames = try receive(wait: wait) else { return nil }
        return MonitorEvent(frames: frames)
    }
}
