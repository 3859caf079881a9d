import CZeroMQ

/// An error reported by libzmq: the operation that failed, `errno`, and libzmq's own text for it.
public struct ZMQError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The `errno` value libzmq reported (for example `EAGAIN`, `EHOSTUNREACH`).
    public let code: Int32
    /// libzmq's description of `code` (`zmq_strerror`).
    public let message: String
    /// What the caller was doing, for example `bind tcp://127.0.0.1:5555`.
    public let operation: String

    /// Creates an error from an explicit code, with libzmq's text for it.
    public init(code: Int32, operation: String) {
        self.code = code
        self.message = String(cString: zmq_strerror(code))
        self.operation = operation
    }

    /// Captures the calling thread's current `zmq_errno()`.
    static func last(_ operation: @autoclosure () -> String) -> ZMQError {
        ZMQError(code: zmq_errno(), operation: operation())
    }

    /// True when the call would have blocked (`EAGAIN`).
    public var wouldBlock: Bool { code == EAGAIN }
    /// True when a ROUTER could not route to the peer (`EHOSTUNREACH`).
    public var hostUnreachable: Bool { code == EHOSTUNREACH }
    /// True when the context was terminated under the call (`ETERM`).
    public var contextTerminated: Bool { code == ETERM }
    /// True when a signal interrupted the call (`EINTR`).
    public var interrupted: Bool { code == EINTR }

    public var description: String { "\(operation): \(message) (errno \(code))" }
}

/// Runs a libzmq call that returns -1 on failure and turns that into a ``ZMQError``.
@discardableResult
@inline(__always)
func check(_ result: Int32, _ operation: @autoclosure () -> String) throws(ZMQError) -> Int32 {
    if result == -1 { throw ZMQError.last(operation()) }
    return result
}
