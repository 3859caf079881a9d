import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// Serves a ``CloudBackOffice`` over plain HTTP/1.1 on a loopback address (never another one), on NIO's
/// shared event loops.
///
/// ```swift
/// let server = CloudBackOfficeServer(backOffice: backOffice)
/// let port = try await server.start()     // http://127.0.0.1:<port>
/// defer { Task { await server.stop() } }
/// ```
public final class CloudBackOfficeServer: Sendable {
    /// What it answers.
    public let backOffice: CloudBackOffice
    private let host: String
    private let port: Int
    private let channel = Mutex<(any Channel)?>(nil)

    /// Creates a server for `backOffice` on `host` (a loopback address) and `port` (0: any free one).
    public init(backOffice: CloudBackOffice, host: String = "127.0.0.1", port: Int = 0) {
        self.backOffice = backOffice
        self.host = host
        self.port = port
    }

    /// Binds and starts serving; returns the bound port.
    public func start() async throws -> Int {
        guard host == "127.0.0.1" || host == "::1" || host.hasPrefix("127.") else {
            throw SimulatorError(.bindFailed, "the simulated back office serves only a loopback address, not \(host)")
        }
        let backOffice = self.backOffice
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(CloudHTTPHandler(backOffice: backOffice))
                }
            }
        let bound = try await bootstrap.bind(host: host, port: port).get()
        channel.withLock { $0 = bound }
        return bound.localAddress?.port ?? port
    }

    /// The base URL clients use (`http://127.0.0.1:PORT`), once started.
    public var baseURL: String? {
        channel.withLock { channel in
            channel?.localAddress?.port.map { "http://\(host.contains(":") ? "[\(host)]" : host):\($0)" }
        }
    }

    /// Stops listening. Idempotent.
    public func stop() async {
        let bound = channel.withLock { channel -> (any Channel)? in
            defer { channel = nil }
            return channel
        }
        try? await bound?.close()
    }
}

/// Reads one request at a time and writes the back office's answer (after its latency, if any).
final class CloudHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let backOffice: CloudBackOffice
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(backOffice: CloudBackOffice) {
        self.backOffice = backOffice
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(var buffer):
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            self.head = nil
            var headers: [String: String] = [:]
            for (name, value) in head.headers { headers[name.lowercased()] = value }
            let response = backOffice.respond(
                CloudRequest(method: head.method.rawValue, target: head.uri, headers: headers, body: body))
            let keepAlive = head.isKeepAlive
            if response.delayMs > 0 {
                let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: .milliseconds(Int64(response.delayMs))) {
                    let (handler, context) = loopBound.value
                    handler.write(response, keepAlive: keepAlive, context: context)
                }
            } else {
                write(response, keepAlive: keepAlive, context: context)
            }
        }
    }

    private func write(_ response: CloudResponse, keepAlive: Bool, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Length", value: String(response.body.count))
        if !response.body.isEmpty { headers.add(name: "Content-Type", value: "application/json; charset=utf-8") }
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        let head = HTTPResponseHead(
            version: .http1_1, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !response.body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: response.body)))), promise: nil)
        }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
