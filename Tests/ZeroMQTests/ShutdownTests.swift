import Foundation
import LoopbackPorts
import Testing
import ZeroMQ

/// Closing sockets and terminating contexts must never hang on unsent messages.
@Suite("Shutdown")
struct ShutdownTests {
    @Test(
        "terminating a context with unsent messages returns within a second",
        arguments: [(Transport.tcp, nil), (.tcp, 100), (.inproc, nil), (.inproc, 100)] as [(Transport, Int32?)]
    )
    func terminateWithPendingMessages(transport: Transport, linger: Int32?) throws {
        let context = try Context()
        let deadPort = try LoopbackPort(listening: false)
        defer { deadPort.release() }
        let closedAt: ContinuousClock.Instant
        do {
            let push = try Socket(context, .push)
            if let linger { try push.setLinger(linger) }
            // Connected to nowhere: every message stays queued.
            let nowhere = transport == .tcp ? deadPort.endpoint : "inproc://nobody-binds-\(UUID().uuidString)"
            try push.connect(nowhere)
            for index in 0..<50 {
                #expect(try push.send(["pending \(index)"], wait: false), "message \(index) was not queued")
            }
            closedAt = .now
            push.close()
        }
        // libzmq's own default linger is infinite: without ours, this would never return.
        let elapsed = try #require(timed(limit: .seconds(3)) { context.terminate() }, "terminate hung")
        #expect(elapsed < .seconds(1), "terminate took \(elapsed)")
        if transport == .tcp, let linger {
            // The linger asked for was honoured: the messages were kept that long before being dropped.
            let kept = closedAt.duration(to: .now)
            #expect(kept >= .milliseconds(linger * 8 / 10), "kept for \(kept)")
        }
    }

    @Test("a socket left open is closed with the object, and the context then terminates")
    func socketReleasedWithObject() throws {
        let context = try Context()
        let nowhere = try LoopbackPort(listening: false)
        defer { nowhere.release() }
        do {
            let push = try Socket(context, .push)
            try push.connect(nowhere.endpoint)
            try push.send(["pending"], wait: false)
            // No close(): deinit closes it.
        }
        let elapsed = try #require(timed(limit: .seconds(3)) { context.terminate() }, "terminate hung")
        #expect(elapsed < .seconds(1), "terminate took \(elapsed)")
    }

    @Test("shutdown wakes a receive blocked on another thread with ETERM")
    func shutdownWakesBlockedReceive() throws {
        let context = try Context()
        let outcome = OutcomeBox()
        let done = DispatchSemaphore(value: 0)
        let owner = Thread {
            defer { done.signal() }
            do {
                let pull = try Socket(context, .pull)  // no timeout: only shutdown can end this receive
                try pull.bind("inproc://blocked")
                _ = try pull.receive()
                outcome.set("received")
            } catch let error as ZMQError {
                outcome.set(error.contextTerminated ? "ETERM" : "\(error)")
            } catch {
                outcome.set("\(error)")
            }
        }
        owner.start()
        context.shutdown()
        #expect(done.wait(timeout: .now() + 2) == .success, "the receive was not woken")
        #expect(outcome.get() == "ETERM")
        context.terminate()
        context.terminate()  // twice is harmless
        // A terminated context is gone: it makes no more sockets.
        let error = #expect(throws: ZMQError.self) { try Socket(context, .pull) }
        #expect(error?.contextTerminated == true)
    }

    @Test("calls on a closed socket fail with ENOTSOCK instead of touching freed memory")
    func closedSocket() throws {
        try withContext { context in
            let socket = try Socket(context, .dealer)
            #expect(!socket.isClosed)
            socket.close()
            socket.close()  // twice is harmless
            #expect(socket.isClosed)
            let calls: [(String, () throws -> Void)] = [
                ("bind", { try socket.bind("inproc://closed") }),
                ("connect", { try socket.connect("inproc://closed") }),
                ("send", { try socket.send(["x"], wait: false) }),
                ("receive", { _ = try socket.receive(wait: false) }),
                ("option", { try socket.setLinger(0) }),
                ("lastEndpoint", { _ = try socket.lastEndpoint }),
                ("monitor", { _ = try socket.openMonitor() }),
            ]
            for (name, call) in calls {
                let error = #expect(throws: ZMQError.self, "\(name)") { try call() }
                #expect(error?.code == ENOTSOCK, "\(name)")
            }
            let poller = Poller()
            poller.add(socket)
            let error = #expect(throws: ZMQError.self) { try poller.poll(timeoutMilliseconds: 0) }
            #expect(error?.code == ENOTSOCK)
        }
    }
}

private final class OutcomeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?
    func set(_ value: String) { lock.withLock { self.value = value } }
    func get() -> String? { lock.withLock { value } }
}
