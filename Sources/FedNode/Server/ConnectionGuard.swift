import Core
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Sits right after the HTTP/1 decoder of every connection and keeps one client from holding a
/// socket: a request that cannot be parsed (an invalid header name such as a literal
/// `(request-target)`, TLS bytes on the plain port, garbage) gets a `400` and the connection
/// closes; an over-long head gets `431`; a connection that does not finish a request head in
/// time, or pauses too long inside a body, is closed. WebSocket upgrades take it out of the way.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private enum Phase {
        /// Between requests: the next head must be complete before the deadline.
        case awaitingHead
        /// Reading a request body: each part must come before the idle deadline.
        case readingBody
        /// The application has the request; no deadline (responses may stream for long).
        case responding
        /// A response was started or the connection is closing: nothing more to guard.
        case done
    }

    private let limits: ServerLimits
    private let logger: Logger
    /// Whether this connection is past the server's connection limit: answered 503 and closed.
    private let refuse: Bool
    private var phase = Phase.awaitingHead
    private var responseStarted = false
    private var timer: Scheduled<Void>?
    /// Set by the `101 Switching Protocols` head: the guard leaves the pipeline at the next flush.
    private var leavesAfterFlush = false
    /// Whether a request head has arrived on this connection.
    private var sawRequest = false

    init(limits: ServerLimits, logger: Logger, refuse: Bool = false) {
        self.limits = limits
        self.logger = logger
        self.refuse = refuse
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if refuse {
            respondAndClose(context, status: .serviceUnavailable, message: "Too many connections")
        } else if context.channel.isActive {
            arm(context, seconds: limits.requestHeadSeconds)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) { disarm() }

    func channelActive(context: ChannelHandlerContext) {
        if !refuse { arm(context, seconds: limits.requestHeadSeconds) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        // Closed before a first request (our head timeout, a 400, a client that connected and
        // left: a load balancer's TCP check, a browser's unused preconnect): the upgrade handler
        // further on still waits for that request to decide on a WebSocket, and a close it is
        // not told about fails its wait as an error, which Hummingbird logs at `error` for every
        // such connection. Told that input ended, it gives up quietly, as when a client
        // half-closes.
        if !sawRequest { context.fireUserInboundEventTriggered(ChannelEvent.inputClosed) }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refuse { return }  // answered 503 and closing: nothing reaches the application
        switch unwrapInboundIn(data) {
        case .head:
            sawRequest = true
            phase = .readingBody
            responseStarted = false
            arm(context, seconds: limits.bodyIdleSeconds)
        case .body:
            if case .readingBody = phase { arm(context, seconds: limits.bodyIdleSeconds) }
        case .end:
            phase = .responding
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            responseStarted = true
            if head.status == .switchingProtocols {
                // A WebSocket from here on: not HTTP any more, and it pings on its own. The guard
                // leaves once the 101 is flushed: leaving inside `write` would drop the flush of
                // the upgrader's `writeAndFlush` with it, and the client would wait for the 101
                // forever. Write and flush run in one event-loop turn, so no byte reads in between.
                phase = .done
                disarm()
                leavesAfterFlush = true
                context.write(data, promise: promise)
                return
            }
        case .body:
            break
        case .end:
            if case .responding = phase {
                phase = .awaitingHead
                arm(context, seconds: limits.requestHeadSeconds)
            }
        }
        context.write(data, promise: promise)
    }

    func flush(context: ChannelHandlerContext) {
        context.flush()
        if leavesAfterFlush {
            leavesAfterFlush = false
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parseError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        let status: HTTPResponseStatus = parseError == .headerOverflow ? .requestHeaderFieldsTooLarge : .badRequest
        let message = parseError == .headerOverflow ? "Request headers too large" : "Malformed HTTP request"
        logger.notice("refused a malformed request", metadata: [
            "error": "\(parseError)", "status": "\(status.code)",
            "peer": "\(context.channel.remoteAddress?.description ?? "-")",
        ])
        respondAndClose(context, status: status, message: message)
    }

    /// Answers `status` with a JSON error body when no response was started, then closes.
    private func respondAndClose(_ context: ChannelHandlerContext, status: HTTPResponseStatus, message: String) {
        disarm()
        let alreadyAnswering = responseStarted && phase == .responding
        phase = .done
        guard !alreadyAnswering else { return context.close(promise: nil) }
        var body = context.channel.allocator.buffer(capacity: message.utf8.count + 16)
        body.writeString(#"{"error":"\#(message)"}"#)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }

    private func arm(_ context: ChannelHandlerContext, seconds: Double) {
        disarm()
        let delay = TimeAmount.nanoseconds(Int64(seconds * 1_000_000_000))
        timer = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: delay) { [self] in
            timer = nil
            switch phase {
            case .awaitingHead, .readingBody:
                logger.debug("closed a connection that sent no complete request in time",
                             metadata: ["peer": "\(context.channel.remoteAddress?.description ?? "-")"])
                phase = .done
                context.close(promise: nil)
            case .responding, .done:
                break
            }
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }
}
