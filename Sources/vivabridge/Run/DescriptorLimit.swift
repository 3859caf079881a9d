import Foundation

/// The process's open-file limit (`RLIMIT_NOFILE`) against what the lanes need: at start the soft limit is
/// raised to the hard one (as Go's runtime and most daemons do: the default soft limit of 1,024 is below what
/// a few hundred lanes take), and a configuration that needs more than the hard limit is said at start.
enum DescriptorLimit {
    /// Descriptors one lane's link takes (docs/OPERATIONS.md, "Open files"): 1 measured (/proc/PID/fd of a
    /// bridge with 10 and 200 lanes up: 47 and 237), its TCP connection (every lane goes through the same
    /// router); and one more while a reconnection overlaps the old one.
    static let perLane = 2
    /// Descriptors the bridge takes whatever its lanes: the journal (database, WAL, shared memory, lock) and
    /// its writer, the command, events and control sockets, ZeroMQ's I/O thread and reaper, epoll, the HTTP
    /// listener, standard streams, and the clients and viewers connected.
    static let base = 128

    /// The descriptors `lanes` lanes need.
    static func needed(lanes: Int) -> Int { base + lanes * perLane }

    /// The soft and hard limits now.
    static func current() -> (soft: UInt64, hard: UInt64) {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return (0, 0) }
        return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
    }

    /// Raises the soft limit to the hard one; returns the soft limit in force afterwards.
    @discardableResult
    static func raiseSoftLimit() -> UInt64 {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Self.resource, &raised) == 0 { return UInt64(raised.rlim_cur) }
        }
        return UInt64(limit.rlim_cur)
    }

    /// What to say when `lanes` lanes need more descriptors than `limit` (the hard limit, to which the soft
    /// one is raised at start); nil when they fit.
    static func shortfall(lanes: Int, limit: UInt64) -> String? {
        let needed = needed(lanes: lanes)
        guard UInt64(needed) > limit else { return nil }
        return "\(lanes) lane(s) need about \(needed) open files (\(perLane) a lane and \(base) for the bridge), "
            + "and the hard limit is \(limit): lanes past it stay down (\"Too many open files\"); raise it to at "
            + "least \(needed) (systemd: LimitNOFILE=\(needed) in the unit; a shell: ulimit -Hn \(needed), as root)"
    }

    #if os(Linux)
        private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resource = RLIMIT_NOFILE
    #endif
}
