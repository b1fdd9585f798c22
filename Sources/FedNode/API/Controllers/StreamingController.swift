import Core
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import ServiceLifecycle

/// `/api/v1/streaming`: live events as server-sent events (one stream per request) or over
/// one WebSocket with subscribe/unsubscribe messages (docs.joinmastodon.org/methods/streaming).
/// Events come from the `StreamingHub`.
struct StreamingController {
    let node: Node
    let hub: StreamingHub

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/streaming/health", use: health)
        router.get("api/v1/streaming", use: streamParameter)
        router.get("api/v1/streaming/user", use: user)
        router.get("api/v1/streaming/user/notification", use: userNotification)
        router.get("api/v1/streaming/public", use: publicTimeline)
        router.get("api/v1/streaming/public/local", use: publicLocal)
        router.get("api/v1/streaming/public/remote", use: publicRemote)
        router.get("api/v1/streaming/hashtag", use: hashtag)
        router.get("api/v1/streaming/hashtag/local", use: hashtagLocal)
        router.get("api/v1/streaming/list", use: list)
        router.get("api/v1/streaming/direct", use: direct)
        router.get("web/stream", use: webSession)
    }

    /// Registers the WebSocket endpoint on the router that decides upgrades.
    func addWebSocketRoutes(to router: Router<BasicWebSocketRequestContext>) {
        let socket = StreamingSocket(node: node, hub: hub)
        router.ws("api/v1/streaming", shouldUpgrade: { request, _ in try await socket.shouldUpgrade(request) },
                  onUpgrade: { inbound, outbound, context in await socket.run(inbound: inbound, outbound: outbound, request: context.request) })
    }

    /// `GET /api/v1/streaming/health`: `OK` as plain text.
    @Sendable func health(_ request: Request, context: NodeRequestContext) async throws -> Response {
        Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "OK")))
    }

    /// `GET /api/v1/streaming?stream=NAME` without a WebSocket upgrade: the named stream as
    /// server-sent events. (A refused WebSocket upgrade never gets here: the WebSocket layer
    /// answers it with 400.)
    @Sendable func streamParameter(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let access = try await StreamingAccess.of(request, node: node)
        let query = request.uri.queryParameters
        let channel = try StreamChannel.named(query["stream"].map(String.init), tag: query["tag"].map(String.init),
                                              list: query["list"].map(String.init))
        return try events(of: channel, for: access)
    }

    /// `GET /api/v1/streaming/user`: the home timeline and notifications.
    @Sendable func user(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try events(of: .user, for: try await StreamingAccess.of(request, node: node))
    }

    /// `GET /api/v1/streaming/user/notification`: notifications only.
    @Sendable func userNotification(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try events(of: .userNotification, for: try await StreamingAccess.of(request, node: node))
    }

    /// `GET /api/v1/streaming/public` (`only_media=true` for photos only): every public post.
    @Sendable func publicTimeline(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try events(of: .public(.all, onlyMedia: onlyMedia(request)), for: try await StreamingAccess.of(request, node: node))
    }

    /// `GET /api/v1/streaming/public/local`: public posts by this node's people.
    @Sendable func publicLocal(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try events(of: .public(.local, onlyMedia: onlyMedia(request)), for: try await StreamingAccess.of(request, node: node))
    }

    /// `GET /api/v1/streaming/public/remote`: public posts from other nodes.
    @Sendable func publicRemote(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try events(of: .public(.remote, onlyMedia: onlyMedia(request)), for: try await StreamingAccess.of(request, node: node))
    }

    /// `GET /api/v1/streaming/hashtag?tag=NAME`: public posts with the hashtag.
    @Sendable func hashtag(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let channel = try StreamChannel.named("hashtag", tag: request.uri.queryParameters["tag"].map(String.init))
        return try events(of: channel, for: try await StreamingAccess.of(request, node: node))
    }

    /// `GET /api/v1/streaming/hashtag/local?tag=NAME`: local public posts with the hashtag.
    @Sendable func hashtagLocal(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let channel = try StreamChannel.named("hashtag:local", tag: request.uri.queryParameters["tag"].map(String.init))
        return try events(of: channel, for: try await StreamingAccess.of(request, node: node))
    }

    /// `GET /api/v1/streaming/list?list=ID`: the posts of one of the caller's lists.
    @Sendable func list(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let channel = try StreamChannel.named("list", tag: nil, list: request.uri.queryParameters["list"].map(String.init))
        return try events(of: channel, for: try await StreamingAccess.of(request, node: node))
    }

    /// `GET /api/v1/streaming/direct`: the caller's direct conversations, as `conversation` events.
    @Sendable func direct(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try events(of: .direct, for: try await StreamingAccess.of(request, node: node))
    }

    private func onlyMedia(_ request: Request) -> Bool {
        ["1", "true"].contains(request.uri.queryParameters["only_media"].map { $0.lowercased() } ?? "")
    }

    /// The `text/event-stream` response for `channel`: a `:)` comment once subscribed, then
    /// `event:`/`data:` blocks and a `:thump` comment every 15 seconds, until the client goes
    /// away or the node shuts down.
    func events(of channel: StreamChannel, for access: StreamingAccess) throws(NodeError) -> Response {
        try access.check(channel)
        let hub = hub
        let viewer = access.viewer
        let body = ResponseBody { writer in
            let subscription = await hub.subscribe(viewer: viewer, to: [channel])
            do {
                try await writer.write(ByteBuffer(string: ":)\n"))
                for await output in subscription.outputs.cancelOnGracefulShutdown() {
                    switch output {
                    case .event(let message): try await writer.write(ByteBuffer(string: message.serverSentText))
                    case .heartbeat: try await writer.write(ByteBuffer(string: ":thump\n"))
                    case .error: continue
                    }
                }
            } catch {
                // The client went away; nothing to tell it.
            }
            await hub.unsubscribe(subscription.id)
            try? await writer.finish(nil)
        }
        let headers: HTTPFields = [
            .contentType: "text/event-stream", .cacheControl: "no-store", HTTPField.Name("X-Accel-Buffering")!: "no",
        ]
        return Response(status: .ok, headers: headers, body: body)
    }
}
