import Foundation
import LoopbackPorts
import Testing
import ZeroMQ

/// Socket options: accepted when sensible, refused when not, and in effect.
@Suite("Socket options")
struct OptionTests {
    @Test("heartbeat, reconnect, high-water marks, limits and timeouts are accepted")
    func optionsAccepted() throws {
        try withContext { context in
            for type in SocketType.allCases {
                let socket = try Socket(context, type)
                try socket.setHeartbeatInterval(1000)
                try socket.setHeartbeatTimeout(3000)
                try socket.setHeartbeatTTL(5000)
                try socket.setReconnectInterval(100)
                try socket.setReconnectIntervalMax(5000)
                try socket.setSendHighWaterMark(100)
                try socket.setReceiveHighWaterMark(0)
                try socket.setMaxMessageSize(1 << 20)
                try socket.setMaxMessageSize(-1)
                try socket.setLinger(100)
                try socket.setReceiveTimeout(-1)
                try socket.setSendTimeout(10)
                try socket.setImmediate(true)
                try socket.setRoutingId(Array("id".utf8))
            }
        }
    }

    @Test("nonsense option values are refused with EINVAL")
    func optionsRefused() throws {
        try withContext { context in
            let socket = try Socket(context, .dealer)
            let refused: [(String, () throws -> Void)] = [
                ("linger -2", { try socket.setLinger(-2) }),
                ("heartbeat interval -1", { try socket.setHeartbeatInterval(-1) }),
                ("reconnect interval -2", { try socket.setReconnectInterval(-2) }),
                ("send hwm -1", { try socket.setSendHighWaterMark(-1) }),
                ("empty routing id", { try socket.setRoutingId([]) }),
                ("short CURVE key", { try socket.setCurveServerKey("HelloWorld") }),
                ("CURVE key outside Z85", { try socket.setCurvePublicKey(String(repeating: "~", count: 40)) }),
                ("long CURVE key", { try socket.setCurveSecretKey(String(repeating: "0", count: 45)) }),
                ("subscribe on a DEALER", { try socket.subscribe("x") }),
            ]
            for (name, set) in refused {
                let error = #expect(throws: ZMQError.self, "\(name)") { try set() }
                #expect(error?.code == EINVAL, "\(name)")
            }
        }
    }

    @Test("a message over the maximum size disconnects the sender and never arrives")
    func maxMessageSize() throws {
        try withContext { context in
            let pull = try makeSocket(context, .pull)
            try pull.setMaxMessageSize(1024)
            let events = try EventWatcher(pull)
            let push = try makeSocket(context, .push)
            try push.connect(try bindFresh(pull, .tcp))

            try push.send([[UInt8](repeating: 1, count: 1024)])
            #expect(try pull.receive()?.first?.count == 1024)

            try push.send([[UInt8](repeating: 2, count: 1025)])
            #expect(try events.next(.disconnected) != nil, "saw \(events.seenKinds)")
            #expect(try pull.receive(wait: false) == nil)
        }
    }

    @Test("the send high-water mark bounds the queue for an absent peer")
    func sendHighWaterMark() throws {
        try withContext { context in
            let nowhere = try LoopbackPort(listening: false)
            defer { nowhere.release() }
            let push = try Socket(context, .push)
            try push.setSendHighWaterMark(4)
            try push.connect(nowhere.endpoint)
            var queued = 0
            while try push.send(["m"], wait: false), queued < 100 { queued += 1 }
            #expect(queued == 4)
        }
    }

    @Test("the receive timeout option bounds a blocking receive")
    func receiveTimeoutOption() throws {
        try withContext { context in
            let pull = try Socket(context, .pull)
            try pull.setReceiveTimeout(0)
            _ = try bindFresh(pull, .inproc)
            #expect(try pull.receive() == nil)
        }
    }
}
