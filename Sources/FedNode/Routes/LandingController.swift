import Core
import Foundation
import Hummingbird

/// `GET /` (and `HEAD /`): the signed-in person's home feed, or a page naming the node with the
/// ways in (sign up, log in, explore). Some servers fetch a domain's root to see that it is
/// alive and refuse to deliver when it does not answer 200.
struct LandingController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("/", use: landing)
        router.head("/", use: landing)
    }

    /// The landing page with the node's name, domain and size.
    @Sendable func landing(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        if let me = web.me { return await web.handling { try await WebFeedController(node: node).homePage(web, me: me) } }
        return await web.handling {
            let usage = try await node.database.read { db in try UsageCounts.read(db, now: Date()) }
            let model: [String: Any] = ["nodeName": node.configuration.nodeName, "domain": node.urls.domain, "users": usage.users,
                                        "posts": usage.localPosts, "open": node.configuration.openRegistrations]
            return try await web.page("landing", title: "\(node.configuration.nodeName) (\(node.urls.domain))", model: model)
        }
    }
}
