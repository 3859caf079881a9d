import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The systemd end of `NOTIFY_SOCKET` for a test: a datagram socket bound on a path of its own,
/// read with `poll(2)` (never a sleep).
final class NotifySocket {
    let path: String
    private let descriptor: Int32
    /// Every datagram received so far, in order.
    private(set) var received: [String] = []

    init() throws {
        path = "/tmp/vb-notify-\(UUID().uuidString.prefix(8)).sock"
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard status == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// Waits up to `timeoutMs` for a datagram holding the line `line` (other datagrams are kept in
    /// ``received`` and skipped); returns the whole datagram.
    func await(line: String, timeoutMs: Int = 10_000) -> String? {
        let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
        while Date() < deadline {
            var descriptors = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
            guard poll(&descriptors, 1, left) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            let datagram = String(decoding: buffer[0..<count], as: UTF8.self)
            received.append(datagram)
            if datagram.split(separator: "\n").contains(where: { $0 == line }) { return datagram }
        }
        return nil
    }
}
