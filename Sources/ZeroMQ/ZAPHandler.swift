import CZeroMQ
import Foundation
import Synchronization

/// A client a ``ZAPHandler`` admits: its CURVE public key, the name it is known by (the ZAP user id),
/// and the ZAP domains (`ZMQ_ZAP_DOMAIN` of the server socket) it may use; nil domains: every one.
public struct ZAPClient: Sendable, Equatable {
    /// The user id the handler answers for this key.
    public var name: String
    /// The public key, Z85.
    public var publicKey: String
    /// The domains admitted; nil for all.
    public var domains: Set<String>?

    /// Creates an allow-list entry.
    public init(name: String, publicKey: String, domains: Set<String>?) {
        self.name = name
        self.publicKey = publicKey
        self.domains = domains
    }
}

/// A ZAP handler (ZeroMQ RFC 27) that admits CURVE clients whose public key is on an allow-list.
///
/// It binds `inproc://zeromq.zap.01` in its context on a thread of its own and answers every
/// authentication request there: `200` for a CURVE client whose key is allowed, `400` for anything
/// else. Create it before the CURVE server socket accepts connections; call ``stop()`` before
/// terminating the context.
public final class ZAPHandler: Sendable {
    private let state: State
    private let thread: LoopThread

    /// Starts answering ZAP requests in `context`, admitting only `allowedPublicKeys` (Z85 text), on
    /// every domain, with the key itself as user id.
    public convenience init(context: Context, allowedPublicKeys: Set<String>) throws(ZMQError) {
        try self.init(
            context: context, clients: allowedPublicKeys.map { ZAPClient(name: $0, publicKey: $0, domains: nil) })
    }

    /// Starts answering ZAP requests in `context`, admitting each of `clients` on its domains.
    /// `onRefusal` hears each refusal: the first 8 Z85 characters of the key (empty for a peer without
    /// CURVE) and the domain; it runs on the handler's thread and must not block.
    public init(
        context: Context, clients: [ZAPClient],
        onRefusal: @escaping @Sendable (_ keyPrefix: String, _ domain: String) -> Void = { _, _ in }
    ) throws(ZMQError) {
        let state = State()
        state.replace(Self.byKey(clients))
        self.state = state
        thread = try LoopThread.start(name: "zap-handler") { () throws(ZMQError) -> (loop: Socket, report: Void) in
            let socket = try Socket(context, .rep)
            try socket.setReceiveTimeout(100)
            try socket.bind("inproc://zeromq.zap.01")
            return (socket, ())
        } run: { socket in
            Self.serve(socket, state: state, onRefusal: onRefusal)
            socket.close()
        }.thread
    }

    /// Stops the handler if ``stop()`` was not called, so that its thread does not keep the context alive.
    deinit { stop() }

    /// Replaces the allow-list: from the next authentication on (a connection already admitted stays).
    public func replaceClients(_ clients: [ZAPClient]) { state.replace(Self.byKey(clients)) }

    /// The domains the client named `name` is admitted on now (nil for all); nil when no client has that
    /// name. Safe from any thread.
    public func domains(ofClientNamed name: String) -> Set<String>?? { state.client(named: name).map(\.domains) }

    private static func byKey(_ clients: [ZAPClient]) -> [[UInt8]: ZAPClient] {
        var byKey: [[UInt8]: ZAPClient] = [:]
        for client in clients {
            if let key = Z85.decode(client.publicKey), key.count == 32 { byKey[key] = client }
        }
        return byKey
    }

    /// The number of requests refused so far.
    public var refusedCount: Int { state.refused() }

    /// Stops answering and waits for the handler's thread to end. Calling it twice is harmless.
    public func stop() {
        guard state.markStopped() else { return }
        thread.join()
    }

    private static func serve(
        _ socket: Socket, state: State,
        onRefusal: @Sendable (String, String) -> Void
    ) {
        while !state.isStopped() {
            let request: [[UInt8]]?
            do { request = try socket.receive() } catch { return }
            guard let request else { continue }
            // Every request gets a reply, even a malformed one: a REP socket that skipped a reply would
            // fail every later receive, and the handler would stop answering.
            let wellFormed = request.count >= 6 && request[0] == Array("1.0".utf8)
            let mechanism = wellFormed ? String(decoding: request[5], as: UTF8.self) : ""
            let key = wellFormed && request.count > 6 ? request[6] : []
            let domain = wellFormed ? String(decoding: request[2], as: UTF8.self) : ""
            let client = mechanism == "CURVE" ? state.client(key) : nil
            let admitted = client.map { $0.domains?.contains(domain) ?? true } ?? false
            if !admitted {
                state.countRefusal()
                onRefusal(String((Z85.encode(key) ?? "").prefix(8)), domain)
            }
            let status = admitted ? "OK" : wellFormed ? "client key not allowed" : "malformed ZAP request"
            let reply: [[UInt8]] = [
                Array("1.0".utf8), request.count > 1 ? request[1] : [],
                Array((admitted ? "200" : "400").utf8), Array(status.utf8),
                admitted ? Array((client?.name ?? "").utf8) : [], [],
            ]
            do { try socket.send(reply) } catch { return }
        }
    }

    /// What the handler's thread and its owner share.
    private final class State: Sendable {
        private let stopped = Atomic<Bool>(false)
        private let refusals = Atomic<Int>(0)
        private let clients = Mutex<[[UInt8]: ZAPClient]>([:])
        func replace(_ newClients: [[UInt8]: ZAPClient]) { clients.withLock { $0 = newClients } }
        func client(_ key: [UInt8]) -> ZAPClient? { clients.withLock { $0[key] } }
        func client(named name: String) -> ZAPClient? { clients.withLock { $0.values.first { $0.name == name } } }
        /// True for the one caller that stopped the handler.
        func markStopped() -> Bool { !stopped.exchange(true, ordering: .acquiringAndReleasing) }
        func isStopped() -> Bool { stopped.load(ordering: .acquiring) }
        func countRefusal() { refusals.add(1, ordering: .relaxed) }
        func refused() -> Int { refusals.load(ordering: .relaxed) }
    }

}
