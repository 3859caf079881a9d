/// What the HTTP listener takes at most (docs/OPERATIONS.md, "HTTP"; docs/SECURITY.md, "The HTTP
/// listener"): connections, descriptors, the time and bytes a request takes, `/events` viewers and what
/// waits for them. Fixed at start; tests lower them so that a limit is cheap to reach.
public struct HTTPLimits: Sendable {
    /// The most connections open at once. Past it the listener accepts nothing more: new connections
    /// wait in the kernel's listen queue (no descriptor of the bridge's) until one closes.
    public var maxConnections = 128
    /// How long a connection may take to send a whole request, head and body, from its opening or from
    /// its last answer: a connect that never sends, a kept-alive connection left idle and a head or a body
    /// sent a byte at a time are all closed after it. An answer being written (an `/events` stream) is never cut.
    public var idleTimeout: Duration = .seconds(10)
    /// The most bytes of one request's body read (no path takes a body: what is read is thrown away); past
    /// them the connection is closed.
    public var maxRequestBodyBytes = 64 << 10
    /// How long the rest of a body is read after its request was answered (with `Connection: close`, and
    /// nothing more sent); then, or once the body ends, the connection is closed.
    public var bodyDrainTime: Duration = .seconds(2)
    /// The descriptors kept free for the bridge's own sockets (command socket, lane links, journal):
    /// the listener accepts no connection while fewer than this are left below ``descriptorLimit``.
    /// Nil: a quarter of the limit, at least 64.
    public var descriptorReserve: Int?
    /// The process's descriptor limit as the listener counts it; nil: the soft `RLIMIT_NOFILE` at start.
    public var descriptorLimit: Int?
    /// The most `/events` viewers at once; one more is answered 503.
    public var maxViewers = 32
    /// The most bytes waiting for all `/events` viewers together (each viewer's, summed); past it the
    /// slowest viewer (the one whose connection went longest without taking a write) is dropped, with a
    /// last SSE comment saying why.
    public var maxViewerBytes = 64 << 20
    /// The most writes one viewer may have waiting; past it it loses its oldest (its `seq` shows the gap).
    public var viewerWrites = 256
    /// How long a dropped viewer's connection (at shutdown, any viewer's) stays open for its last write
    /// before it is closed.
    public var viewerCloseGrace: Duration = .seconds(2)

    /// The defaults above.
    public init() {}

    /// The reserve in force for `limit` descriptors.
    func reserve(under limit: Int) -> Int { descriptorReserve ?? max(64, limit / 4) }
}
