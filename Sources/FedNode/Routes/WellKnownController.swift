import Activity
import Core
import Foundation
import Hummingbird
import Storage

/// Discovery as the fediverse serves it: WebFinger (RFC 7033), host-meta (RFC 6415) and
/// NodeInfo 2.0/2.1.
struct WellKnownController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get(".well-known/webfinger", use: webfinger)
        router.get(".well-known/host-meta", use: hostMeta)
        router.get(".well-known/nodeinfo", use: nodeInfoLinks)
        router.get("nodeinfo/2.0", use: { request, context in try await nodeInfo(version: "2.0") })
        router.get("nodeinfo/2.1", use: { request, context in try await nodeInfo(version: "2.1") })
    }

    /// `GET /.well-known/webfinger?resource=acct:NAME@DOMAIN` (or the actor/profile URL):
    /// the JRD with `self` and profile-page links. 400 malformed, 404 unknown.
    @Sendable func webfinger(_ request: Request, context: NodeRequestContext) async throws -> Response {
        guard let raw = request.uri.queryParameters["resource"].map(String.init), !raw.isEmpty else {
            throw NodeError.badRequest("Missing resource parameter")
        }
        let resource: WebFingerResource
        do { resource = try WebFingerResource(parsing: raw) } catch {
            throw NodeError.badRequest("Malformed resource parameter")
        }
        guard let username = localUsername(for: resource) else { throw NodeError.notFound("Record not found") }
        let account = try await node.accounts.local(username)
        let document = WebFingerDocument(
            subject: "acct:\(account.username)@\(node.urls.domain)",
            aliases: [node.urls.profile(account.username), account.uri],
            properties: nil,
            links: [
                WebFingerLink(rel: "http://webfinger.net/rel/profile-page", type: "text/html", href: node.urls.profile(account.username)),
                WebFingerLink(rel: "self", type: ActivityStreams.mediaType, href: account.uri),
                WebFingerLink(rel: "http://ostatus.org/schema/1.0/subscribe", template: "\(node.urls.base)/authorize_interaction?uri={uri}"),
            ])
        return JSONResponse.encode(document, contentType: "application/jrd+json; charset=utf-8", headers: [.accessControlAllowOrigin: "*"])
    }

    /// The local username a WebFinger resource names, or `nil` when it is not one of ours.
    private func localUsername(for resource: WebFingerResource) -> String? {
        switch resource {
        case .account(let username, let domain):
            return node.urls.isOwn(authority: domain) ? username : nil
        case .url(let given):
            guard let url = node.urls.canonicalLocal(given) else { return nil }
            for prefix in ["\(node.urls.base)/users/", "\(node.urls.base)/@"] where url.hasPrefix(prefix) {
                let rest = url.dropFirst(prefix.count)
                return rest.isEmpty || rest.contains("/") ? nil : String(rest)
            }
            return nil
        }
    }

    /// `GET /.well-known/host-meta`: the XRD pointing at the WebFinger template.
    @Sendable func hostMeta(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">
              <Link rel="lrdd" template="\(node.urls.base)/.well-known/webfinger?resource={uri}"/>
            </XRD>

            """
        return JSONResponse.bytes(Data(xml.utf8), contentType: "application/xrd+xml; charset=utf-8", headers: [.accessControlAllowOrigin: "*"])
    }

    /// `GET /.well-known/nodeinfo`: links to the 2.0 and 2.1 documents.
    @Sendable func nodeInfoLinks(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let links = NodeInfoLinks(links: ["2.0", "2.1"].map { version in
            WebFingerLink(rel: "http://nodeinfo.diaspora.software/ns/schema/\(version)", href: "\(node.urls.base)/nodeinfo/\(version)")
        })
        return JSONResponse.encode(links, headers: [.accessControlAllowOrigin: "*"])
    }

    /// `GET /nodeinfo/2.0|2.1`: software, protocols, usage counts, registrations.
    func nodeInfo(version: String) async throws -> Response {
        let usage = try await node.database.read { db in try UsageCounts.read(db, now: Date()) }
        let document = NodeInfoDocument.make(
            version: version, softwareVersion: NodeConfiguration.softwareVersion, users: usage.users,
            activeHalfyear: usage.activeHalfyear, activeMonth: usage.activeMonth, localPosts: usage.localPosts,
            openRegistrations: node.configuration.openRegistrations, nodeName: node.configuration.nodeName)
        let profile = "application/json; profile=\"http://nodeinfo.diaspora.software/ns/schema/\(version)#\""
        return JSONResponse.encode(document, contentType: profile, headers: [.accessControlAllowOrigin: "*"])
    }
}

/// Usage figures for NodeInfo.
struct UsageCounts {
    var users: Int
    var activeMonth: Int
    var activeHalfyear: Int
    var localPosts: Int

    /// Counts local accounts, those active (posted or signed in) in 30 and 180 days, and local posts.
    static func read(_ db: Transaction, now: Date) throws -> UsageCounts {
        func activeSince(_ days: Double) throws -> Int {
            try db.statistics.activeLocalAccountCount(since: now.addingTimeInterval(-days * 86400))
        }
        return UsageCounts(
            users: try db.statistics.localAccountCount(),
            activeMonth: try activeSince(30),
            activeHalfyear: try activeSince(180),
            localPosts: try db.statistics.localPostCount())
    }
}
