import BridgeClient
import Foundation

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// A TCP connection to a loopback port as a hostile or careless client makes it: connected without
/// waiting (a connect the listener never accepts still holds its descriptor here), with a small receive
/// buffer when asked (a viewer that does not read then fills it at once), sending what it is told, read
/// only when asked.
final class RawConnection: @unchecked Sendable {
    private(set) var descriptor: Int32

    /// Starts connecting to `127.0.0.1:port`; nil when this process has no descriptor left.
    init?(port: Int, receiveBuffer: Int? = nil) {
        guard let descriptor = LoopbackSocket.open(nonBlocking: true) else { return nil }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        LoopbackSocket.connect(descriptor, port: port)
        self.descriptor = descriptor
    }

    /// Waits up to `timeoutMs` for the connection to be made; whether it was.
    func waitConnected(timeoutMs: Int32 = 5000) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        guard poll(&entry, 1, timeoutMs) == 1 else { return false }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
        return error == 0
    }

    /// Sends `text` (once connected); whether all of it went.
    @discardableResult
    func write(_ text: String) -> Bool {
        guard waitConnected() else { return false }
        return LoopbackSocket.send(descriptor, text)
    }

    /// Reads what arrives until the peer closes or `timeoutMs` passes with nothing new; the bytes, and
    /// whether the peer closed.
    func drain(timeoutMs: Int32) -> (bytes: [UInt8], closed: Bool) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, timeoutMs) == 1 else { return (bytes, false) }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return (bytes, true) }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                return (bytes, true)  // reset
            }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }

    /// Reads until what arrived ends with `suffix` (nil: only until the peer closes), the peer closes, or
    /// `timeoutMs` passes, on a thread of its own.
    func drained(until suffix: String?, timeoutMs: Int) async -> (bytes: [UInt8], closed: Bool) {
        let end = suffix.map { Array($0.utf8) }
        let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
        var bytes: [UInt8] = []
        while Date() < deadline {
            let part = await drained(timeoutMs: 200)
            bytes += part.bytes
            if part.closed { return (bytes, true) }
            if let end, bytes.suffix(end.count).elementsEqual(end) { return (bytes, false) }
        }
        return (bytes, false)
    }

    /// ``drain(timeoutMs:)`` on a thread of its own: the listener's handlers need Swift's few cooperative
    /// threads meanwhile.
    func drained(timeoutMs: Int32) async -> (bytes: [UInt8], closed: Bool) {
        (try? await HTTPProbe.offPool { self.drain(timeoutMs: timeoutMs) }) ?? ([], false)
    }

    /// ``write(_:)`` on a thread of its own.
    func wrote(_ text: String) async -> Bool {
        (try? await HTTPProbe.offPool { self.write(text) }) ?? false
    }

    func close() {
        if descriptor >= 0 { LoopbackSocket.close(descriptor) }
        descriptor = -1
    }

    deinit { close() }
}

/// The process's descriptors: how many are open, and room for more.
enum ProcessDescriptors {
    static func open() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }

    /// Raises the soft descriptor limit to at least `count` (within the hard limit); whether it is.
    static func ensureLimit(_ count: Int) -> Bool {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return false }
        if limit.rlim_cur >= rlim_t(count) { return true }
        guard limit.rlim_max >= rlim_t(count) else { return false }
        limit.rlim_cur = rlim_t(count)
        return setrlimit(resource, &limit) == 0
    }
}

/// A value handed to a thread of its own (``HTTPProbe/offPool(_:)``) by a test that no longer touches it
/// meanwhile.
struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
