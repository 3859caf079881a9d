import Foundation

#if canImport(Glibc)
    import Glibc
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
    private let noSignal = Int32(MSG_NOSIGNAL)
#else
    import Darwin
    private let streamSocket = SOCK_STREAM
    private let noSignal: Int32 = 0
#endif

/// The POSIX calls under a TCP client of a loopback port (``LoopbackHTTP``, and tests that connect as a
/// careless or hostile client would): a descriptor, a connect to `127.0.0.1:port`, a send, a close.
public enum LoopbackSocket {
    /// A new TCP socket's descriptor, non-blocking when asked; nil when the process has no descriptor left.
    public static func open(nonBlocking: Bool = false) -> Int32? {
        let descriptor = socket(AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { return nil }
        if nonBlocking { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) }
        return descriptor
    }

    /// Connects `descriptor` to `127.0.0.1:port` (on a non-blocking one, starts connecting); whether the
    /// connect was made at once.
    @discardableResult
    public static func connect(_ descriptor: Int32, port: Int) -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                #else
                    Darwin.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                #endif
            }
        }
    }

    /// Sends all of `text` on `descriptor` (no SIGPIPE when the peer has gone); whether all of it went.
    public static func send(_ descriptor: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        #if canImport(Glibc)
            return Glibc.send(descriptor, bytes, bytes.count, noSignal) == bytes.count
        #else
            return Darwin.send(descriptor, bytes, bytes.count, noSignal) == bytes.count
        #endif
    }

    /// Closes `descriptor`.
    public static func close(_ descriptor: Int32) {
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }
}
