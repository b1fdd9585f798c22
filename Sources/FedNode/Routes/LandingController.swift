import Foundation
import Hummingbird

/// `GET /` (and `HEAD /`): a small HTML page naming the node. Some servers fetch a domain's root
/// to see that it is alive and refuse to deliver when it does not answer 200.
struct LandingController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("/", use: landing)
        router.head("/", use: landing)
    }

    /// The landing page with the node's name, domain and size.
    @Sendable func landing(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let usage = try await node.database.read { db in try UsageCounts.read(db, now: Date()) }
        return JSONResponse.html(LandingPage.render(name: node.configuration.nodeName, domain: node.urls.domain, usage: usage))
    }
}
