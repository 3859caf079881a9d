import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Holds each connection to what ``HTTPLimits`` allows a request: it is whole (head and body) within
/// ``HTTPLimits/idleTimeout`` of the connection's opening or its last answer; at most
/// ``HTTPLimits/maxRequestBodyBytes`` of a body are read (no path takes one, what is read is thrown away); and
/// a request answered before its body is whole gets `Connection: close`, its connection stops sending and is
/// closed once the body ends, the bytes are reached or ``HTTPLimits/bodyDrainTime`` passed. Anything else
/// closes the connection. A body trickled a byte at a time therefore holds a connection for seconds, not for
/// as long as it trickles (each byte used to renew the idle timer).
///
/// One per connection, on its event loop; after the HTTP codec, before Hummingbird's own idle handler.
final class RequestDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let wholeWithin: TimeAmount
    private let drainWithin: TimeAmount
    private let maxBodyBytes: Int
    /// When the connection is closed unless a whole request came (or, draining, the body ended) first.
    private var deadline: (at: NIODeadline, task: Scheduled<Void>)?
    /// Requests read whole and not answered yet.
    private var wholeUnanswered = 0
    /// Whether a request's head came and its end not yet.
    private var reading = false
    private var bodyBytes = 0
    /// Whether the request being read was answered already: what comes of its body is read and thrown away.
    private var draining = false

    init(limits: HTTPLimits) {
        wholeWithin = TimeAmount(limits.idleTimeout)
        drainWithin = TimeAmount(limits.bodyDrainTime)
        maxBodyBytes = limits.maxRequestBodyBytes
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { expect(context, within: wholeWithin) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { cancelDeadline() }

    func channelActive(context: ChannelHandlerContext) {
        expect(context, within: wholeWithin)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelDeadline()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            reading = true
            bodyBytes = 0
            // A request pipelined behind one being answered: its time starts now.
            if deadline == nil { expect(context, within: wholeWithin) }
        case .body(let buffer):
            bodyBytes += buffer.readableBytes
            guard bodyBytes <= maxBodyBytes else {
                context.close(promise: nil)
                return
            }
        case .end:
            reading = false
            guard !draining else {
                context.close(promise: nil)
                return
            }
            wholeUnanswered += 1
            cancelDeadline()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        // The answer is to the request being read when no whole one waits for its own (answers go in order).
        let answersPartial = reading && wholeUnanswered == 0
        switch part {
        case .head(var response) where answersPartial:
            response.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(response)), promise: promise)
        case .end where answersPartial:
            draining = true
            let written = promise ?? context.eventLoop.makePromise()
            written.futureResult.assumeIsolated().whenComplete { _ in context.close(mode: .output, promise: nil) }
            context.writeAndFlush(data, promise: written)
            let drainEnd = NIODeadline.now() + drainWithin
            if let current = deadline?.at, current < drainEnd { return }
            expect(context, by: drainEnd)
        case .end where wholeUnanswered > 0:
            wholeUnanswered -= 1
            if wholeUnanswered == 0, !reading { expect(context, within: wholeWithin) }
            context.write(data, promise: promise)
        default:
            context.write(data, promise: promise)
        }
    }

    private func expect(_ context: ChannelHandlerContext, within time: TimeAmount) {
        expect(context, by: .now() + time)
    }

    /// Closes the connection at `time` unless the deadline is cancelled or moved first.
    private func expect(_ context: ChannelHandlerContext, by time: NIODeadline) {
        cancelDeadline()
        let task = context.eventLoop.assumeIsolated().scheduleTask(deadline: time) { [weak self] in
            self?.deadline = nil
            context.close(promise: nil)
        }
        deadline = (time, task)
    }

    private func cancelDeadline() {
        deadline?.task.cancel()
        deadline = nil
    }
}
