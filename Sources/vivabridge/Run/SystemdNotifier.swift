import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Tells systemd how the service is doing (`sd_notify(3)`'s protocol, without libsystemd): one datagram
/// per state to the socket named by `NOTIFY_SOCKET`. Without that variable (not under a `Type=notify`
/// unit) every call does nothing.
///
/// The states sent: `READY=1` once every endpoint is bound, `RELOADING=1` (with `MONOTONIC_USEC`) then
/// `READY=1` around a SIGHUP reload, `STOPPING=1` when a shutdown starts, `WATCHDOG=1` while the bridge's
/// loop turns (see ``Watchdog``), and `STATUS=` lines a person reads in `systemctl status`.
struct SystemdNotifier: Sendable {
    /// The socket's path; a leading `@` names an abstract socket.
    let socketPath: String?

    /// A notifier for the socket in `environment` (`NOTIFY_SOCKET`), if any.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let path = environment["NOTIFY_SOCKET"] ?? ""
        socketPath = path.isEmpty ? nil : path
    }

    /// Sends `lines` (`KEY=value` each) as one datagram; failures are ignored, as sd_notify's are.
    func send(_ lines: String...) {
        guard let socketPath else { return }
        let message = Array(lines.joined(separator: "\n").utf8)
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.enumerated() { bytes[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                message.withUnsafeBytes { body in
                    sendto(descriptor, body.baseAddress, body.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                }
            }
        }
    }

    /// `READY=1` with a status line.
    func ready(_ status: String) { send("READY=1", "STATUS=\(status)") }

    /// `RELOADING=1` with the monotonic time systemd asks for.
    func reloading() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let microseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        send("RELOADING=1", "MONOTONIC_USEC=\(microseconds)", "STATUS=reloading the configuration")
    }

    /// `STOPPING=1` with a status line.
    func stopping(_ status: String) { send("STOPPING=1", "STATUS=\(status)") }

    /// The watchdog interval systemd asked for (`WATCHDOG_USEC`, for this process when `WATCHDOG_PID`
    /// is set), in milliseconds, or nil when there is none.
    static func watchdogMilliseconds(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int? {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = Int(text), microseconds > 0 else {
            return nil
        }
        if let pid = environment["WATCHDOG_PID"], pid != String(getpid()) { return nil }
        return max(1, microseconds / 1000)
    }
}
