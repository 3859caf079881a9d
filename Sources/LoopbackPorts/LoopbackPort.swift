import Foundation

#if canImport(Glibc)
    import Glibc
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
#else
    import Darwin
    private let streamSocket = SOCK_STREAM
#endif

/// A TCP loopback port held by a test, so that no other test is given it meanwhile:
/// - bound and not listening: connecting to it is refused (a relay that is down);
/// - listening and never answering: connections complete and then nothing is said (a relay that stalls).
///
/// Keep it until the end of the test (`defer { port.release() }`).
public final class LoopbackPort {
    /// Why a port could not be taken.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The socket's descriptor, -1 once released.
    public private(set) var descriptor: Int32
    /// `tcp://127.0.0.1:<port>`.
    public let endpoint: String

    /// Takes a free port; `listening` makes it accept connections (and never answer them).
    public convenience init(listening: Bool) throws { try self.init(port: 0, listening: listening) }

    /// Takes `port` (0: any free one); throws when another socket holds it.
    public init(port: UInt16, listening: Bool = false) throws {
        let descriptor = socket(AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound, !listening || listen(descriptor, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "bind a loopback port: \(reason)")
        }
        self.descriptor = descriptor
        endpoint = "tcp://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
    }

    /// Gives the port back.
    public func release() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    deinit { release() }
}
