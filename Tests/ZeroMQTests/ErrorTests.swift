import CZeroMQ
import Testing
import ZeroMQ

/// Errors carry errno, libzmq's own text, and what was being done.
@Suite("ZMQError")
struct ErrorTests {
    @Test(
        "binding to a bad endpoint fails with errno and libzmq's text",
        arguments: [
            ("tcp://127.0.0.1:notaport", EINVAL, "Invalid argument"),
            ("nosuch://somewhere", EPROTONOSUPPORT, "Protocol not supported"),
            ("tcp://127.0.0.1", EINVAL, "Invalid argument"),
        ] as [(String, Int32, String)]
    )
    func badEndpoint(endpoint: String, code: Int32, message: String) throws {
        try withContext { context in
            let socket = try Socket(context, .pull)
            let error = try #require(throws: ZMQError.self) { try socket.bind(endpoint) }
            #expect(error.code == code)
            #expect(error.message == message)
            #expect(error.operation == "bind \(endpoint)")
            #expect(error.description == "bind \(endpoint): \(message) (errno \(code))")
        }
    }

    @Test("binding a port already in use fails with EADDRINUSE")
    func addressInUse() throws {
        try withContext { context in
            let first = try Socket(context, .pull)
            try first.bind("tcp://127.0.0.1:*")
            let endpoint = try first.lastEndpoint
            let second = try Socket(context, .pull)
            let error = try #require(throws: ZMQError.self) { try second.bind(endpoint) }
            #expect(error.code == EADDRINUSE)
            #expect(error.message == "Address already in use")
        }
    }

    @Test("libzmq's own error numbers get libzmq's own text")
    func libzmqCodes() throws {
        try withContext { context in
            let req = try makeSocket(context, .req)
            // A REQ must receive a reply before it sends again.
            try req.connect("inproc://nobody")
            try req.send(["one"])
            let error = try #require(throws: ZMQError.self) { try req.send(["two"]) }
            #expect(error.code == EFSM)
            #expect(error.message == "Operation cannot be accomplished in current state")

            let term = ZMQError(code: ETERM, operation: "receive")
            #expect(term.contextTerminated)
            #expect(term.message == "Context was terminated")
            #expect(ZMQError(code: EAGAIN, operation: "send").wouldBlock)
            #expect(ZMQError(code: EHOSTUNREACH, operation: "send").hostUnreachable)
            #expect(ZMQError(code: EINTR, operation: "poll").interrupted)
            #expect(!ZMQError(code: EINVAL, operation: "poll").wouldBlock)
        }
    }
}
