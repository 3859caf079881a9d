import Bridge
import Foundation
import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// Decides when the listener accepts a connection (Hummingbird asks before each accept): while fewer than
/// ``HTTPLimits/maxConnections`` are open and the process keeps its descriptor reserve free. A connection
/// not accepted waits in the kernel's listen queue, holding no descriptor of the bridge's, so idle connects
/// cannot take the descriptors the command socket and the lane links need.
struct ConnectionGate: AvailableConnectionsDelegate {
    let state: ConnectionGateState

    mutating func connectionOpened() { state.opened() }
    mutating func connectionClosed() { state.closed() }
    func isAcceptingNewConnections() -> Bool { state.accepting() }
}

/// The gate's count of open connections and descriptor budget, shared with the listener, which reports
/// the count in `/metrics` and reopens the gate once descriptors are free again (Hummingbird asks again
/// only when one of its own connections closes).
final class ConnectionGateState: Sendable {
    let maxConnections: Int
    /// The descriptor limit and the reserve kept below it.
    let descriptorLimit: Int
    let reserve: Int
    private let metrics: HTTPListenerMetrics
    private let logger: Logger
    private let open = Atomic<Int>(0)
    /// Whether the last answer was no: the listener then asks the server channel to read again each second.
    private let refusing = Atomic<Bool>(false)
    /// When the last warning was logged (uptime nanoseconds): one a minute at most.
    private let warnedAt = Atomic<UInt64>(0)

    init(limits: HTTPLimits, metrics: HTTPListenerMetrics, logger: Logger) {
        maxConnections = max(limits.maxConnections, Self.acceptBatch)
        descriptorLimit = limits.descriptorLimit ?? Descriptors.softLimit()
        reserve = limits.reserve(under: descriptorLimit)
        self.metrics = metrics
        self.logger = logger
    }

    /// Connections open now.
    var connections: Int { open.load(ordering: .relaxed) }

    /// Whether the gate said no the last time it was asked.
    var isRefusing: Bool { refusing.load(ordering: .relaxed) }

    func opened() {
        metrics.setConnections(open.wrappingAdd(1, ordering: .relaxed).newValue)
    }

    func closed() {
        metrics.setConnections(open.wrappingSubtract(1, ordering: .relaxed).newValue)
    }

    /// NIO accepts up to this many connections for one read of the listening socket (its
    /// `maxMessagesPerRead`, 4 by default): a read is allowed only when that many more still fit.
    static let acceptBatch = 4

    func accepting() -> Bool {
        let connections = connections
        var reason: String?
        if connections + Self.acceptBatch > maxConnections {
            reason = "\(connections) connections open, \(maxConnections) the most taken"
        } else {
            let descriptors = Descriptors.open()
            if descriptors + Self.acceptBatch + reserve > descriptorLimit {
                reason =
                    "\(descriptors) descriptors open of a limit of \(descriptorLimit), \(reserve) kept for the bridge's sockets"
            }
        }
        refusing.store(reason != nil, ordering: .relaxed)
        if let reason { warn(reason, connections: connections) }
        return reason == nil
    }

    private func warn(_ reason: String, connections: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        let last = warnedAt.load(ordering: .relaxed)
        guard last == 0 || now &- last >= 60_000_000_000,
            warnedAt.compareExchange(expected: last, desired: now, ordering: .relaxed).exchanged
        else { return }
        logger.warning(
            "http: new connections wait until one closes",
            metadata: ["reason": "\(reason)", "connections": "\(connections)"])
    }
}

/// The process's file descriptors, counted where the kernel lists them.
enum Descriptors {
    /// The soft `RLIMIT_NOFILE`; 1024 when it cannot be read.
    static func softLimit() -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        // Unlimited (RLIM_INFINITY, all ones) clamps to Int.max: no descriptor shortage to guard against.
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        return Int(clamping: limit.rlim_cur)
    }

    /// How many descriptors the process has open (`/proc/self/fd`; `/dev/fd` elsewhere), the one this
    /// count opens left out; 0 when the folder cannot be read.
    static func open() -> Int {
        #if os(Linux)
            let folder = "/proc/self/fd"
        #else
            let folder = "/dev/fd"
        #endif
        guard let directory = opendir(folder) else { return 0 }
        defer { closedir(directory) }
        // A record is only as long as its name: read the name's first bytes where they are, never the
        // whole `d_name` array (copying it reads past a short record at the end of the buffer).
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        var count = 0
        while let entry = readdir(directory) {
            let name = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: UInt8.self)
            let isDot = name[0] == UInt8(ascii: ".") && (name[1] == 0 || (name[1] == UInt8(ascii: ".") && name[2] == 0))
            if !isDot { count += 1 }
        }
        return max(0, count - 1)
    }
}
