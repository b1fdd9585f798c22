import Core
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging

/// Builds the node's HTTP application: every route, the error mapping, request logging,
/// WebSocket upgrades for streaming, and the background services (workers, streaming hub),
/// as far as the node's `role` asks for them. `fednode serve` and the tests both start nodes
/// through this.
/// - Parameters:
///   - node: The opened node (database, services).
///   - runWorkers: Whether the background work runs (`false`: role `web`; tests turn it off
///     to play a node that dies right after accepting).
/// - Returns: An application ready for `runService()`.
public func buildApplication(node: Node, runWorkers: Bool = true) -> some ApplicationProtocol {
    let role = runWorkers ? node.configuration.role : .web
    let router = Router(context: NodeRequestContext.self)
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: MetricsMiddleware(metrics: node.metrics.http))
    router.add(middleware: ErrorMiddleware())
    if role.servesHTTP { router.add(middleware: WebErrorPages(node: node)) }
    HealthController(node: node).addRoutes(to: router)
    ReadinessController(node: node).addRoutes(to: router)
    MetricsController(node: node).addRoutes(to: router)
    let hub = StreamingHub(node: node)
    // Upgrades are decided by their own router, so ordinary requests never match against it.
    let webSocketRouter = Router(context: BasicWebSocketRequestContext.self)
    if role.servesHTTP {
        LandingController(node: node).addRoutes(to: router)
        WellKnownController(node: node).addRoutes(to: router)
        ActorController(node: node).addRoutes(to: router)
        StatusController(node: node).addRoutes(to: router)
        InboxController(node: node).addRoutes(to: router)
        RemoteMediaController(node: node).addRoutes(to: router)
        InviteController(node: node).addRoutes(to: router)
        addClientAPIRoutes(to: router, node: node)
        addWebRoutes(to: router, node: node)
        let streaming = StreamingController(node: node, hub: hub)
        streaming.addRoutes(to: router)
        streaming.addWebSocketRoutes(to: webSocketRouter)
    }
    let limits = node.configuration.serverLimits
    let configuration = ApplicationConfiguration(
        address: .hostname(node.configuration.host, port: node.configuration.port),
        serverName: "fednode/\(NodeConfiguration.softwareVersion)")
    var application = Application(
        router: router, server: guardedServer(webSocketRouter: webSocketRouter, limits: limits),
        configuration: configuration, logger: node.logger)
    if role.runsWorkers {
        application.addServices(node.workers.tracking(InboxWorker(node: node), as: ReadinessController.inboxWorker),
                                node.workers.tracking(DeliveryWorker(node: node), as: ReadinessController.deliveryWorker),
                                MediaJanitor(node: node), PushWorker(node: node), PollCloser(node: node),
                                ScheduledPublisher(node: node))
    }
    if role.servesHTTP { application.addServices(hub) }
    application.addServices(node.backgroundJobs)
    if role.runsWorkers { application.addServices(SeenActivityPruner(node: node)) }
    // Claims on queued work are taken (and must be kept alive) only on a shared database.
    if role.runsWorkers, node.database.isShared { application.addServices(ClaimRenewal(node: node)) }
    return application
}

/// HTTP/1 with WebSocket upgrades for the streaming API, every connection behind a
/// `ConnectionGuard` (parse errors answered, slow clients cut off, heads bounded).
private func guardedServer(webSocketRouter: Router<BasicWebSocketRequestContext>, limits: ServerLimits) -> HTTPServerBuilder {
    let webSocketResponder = webSocketRouter.buildResponder()
    var http1 = HTTP1Channel.Configuration()
    http1.httpDecoder = .init(maxHeaderFieldSize: limits.maxHeaderFieldBytes, maxHeaderListSize: limits.maxHeaderListBytes,
                              maxHeaderFieldCount: 256)
    let configuration = HTTP1WebSocketUpgradeChannel.Configuration(http1: http1, ws: .init())
    return HTTPServerBuilder { responder in
        GuardedChannel(
            inner: HTTP1WebSocketUpgradeChannel(
                responder: responder, webSocketResponder: webSocketResponder,
                configuration: configuration),
            limits: limits)
    }
}

/// Opens the node described by `configuration` and builds its application.
/// - Throws: `NodeError.configuration` when the node cannot open its data.
public func buildApplication(configuration: NodeConfiguration, logger: Logger) throws(NodeError) -> some ApplicationProtocol {
    buildApplication(node: try Node(configuration: configuration, logger: logger))
}

/// Serves `node` on its configured address until the calling task is cancelled, workers
/// included: the benchmark's in-process nodes run this way.
/// - Throws: What the application throws when it cannot serve.
public func serve(_ node: Node) async throws {
    try await buildApplication(node: node).run()
}
