import Activity
import Core
import Foundation
import Hummingbird
import Storage

/// `GET /users/NAME/statuses/ID` (the Note, or an HTML page for browsers), its `/activity`,
/// and its `likes` and `replies` collections. Public and unlisted posts are served to anyone;
/// followers-only posts only to a signed fetch by an accepted follower, direct posts only to a
/// signed fetch by someone mentioned (authorized fetch, as Mastodon does).
struct StatusController {
    /// Reply ids listed in a post's `replies` collection (oldest first); `totalItems` counts all.
    static let maxReplies = 100
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("users/:username/statuses/:id", use: status)
        router.get("users/:username/statuses/:id/activity", use: activity)
        router.get("users/:username/statuses/:id/likes", use: likes)
        router.get("users/:username/statuses/:id/replies", use: replies)
        router.get("actor", use: instanceActor)
    }

    /// The Note by content negotiation.
    @Sendable func status(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (post, parts) = try await visiblePost(request, context)
        let note = PostToAS(urls: node.urls).note(post, parts: parts)
        switch ContentNegotiation.preferred(accept: request.headers[.accept]) {
        case .activityJSON:
            var document = note
            document.context = ASContext.standard
            return JSONResponse.bytes(document.encoded(), contentType: JSONResponse.activity, headers: [.vary: "Accept"])
        case .html:
            // The web app's page of the post, at its shareable address.
            return Response(status: .found, headers: [.location: LocalRedirect.target("/@\(parts.author.username)/\(post.id)"), .vary: "Accept"])
        case nil:
            throw NodeError.notAcceptable("Not acceptable: use application/activity+json or text/html")
        }
    }

    /// The Create activity of a post.
    @Sendable func activity(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (post, parts) = try await visiblePost(request, context)
        var create = PostToAS(urls: node.urls).create(post, parts: parts)
        create.context = ASContext.standard
        return JSONResponse.bytes(create.encoded(), contentType: JSONResponse.activity)
    }

    /// Who liked the post, as an OrderedCollection of actor ids.
    @Sendable func likes(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (post, _) = try await visiblePost(request, context)
        // The count and the newest page only: a popular post's likes are never all loaded.
        let (total, likers) = try await node.database.read { db in
            (try db.likes.count(on: post.id), try db.likes.likerURIs(of: post.id, limit: CollectionPager.pageSize))
        }
        return collection(id: post.uri + "/likes", total: total, items: likers[...])
    }

    /// Public comments on the post, as a Collection of their ids.
    @Sendable func replies(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (post, _) = try await visiblePost(request, context)
        let (total, ids) = try await node.database.read { db in
            (try db.posts.publicReplyCount(of: post.id), try db.posts.publicReplyURIs(of: post.id, limit: Self.maxReplies))
        }
        return collection(id: post.uri + "/replies", total: total, items: ids[...])
    }

    private func collection(id: String, total: Int, items: ArraySlice<String>) -> Response {
        let document = ASObject(id: id, type: "OrderedCollection", context: ASContext.activityStreams,
                                totalItems: total, items: items.map { .id($0) })
        return JSONResponse.bytes(document.encoded(), contentType: JSONResponse.activity)
    }

    /// The instance actor (`Application`), whose key signs the node's fetches.
    @Sendable func instanceActor(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let actor = node.instanceActor
        let document = ASObject(
            id: actor.id, type: "Application", context: ASContext.standard, name: node.configuration.nodeName,
            preferredUsername: node.urls.domain, inbox: node.urls.sharedInbox, outbox: actor.id + "/outbox",
            endpoints: ASEndpoints(sharedInbox: node.urls.sharedInbox),
            publicKey: ASPublicKey(id: actor.signer.keyId, owner: actor.id, publicKeyPem: actor.publicKeyPem),
            manuallyApprovesFollowers: true)
        return JSONResponse.bytes(document.encoded(), contentType: JSONResponse.activity)
    }

    /// The local post named by the path, if the requester may see it: public and unlisted to
    /// anyone; otherwise only to a verified signed fetch by an accepted follower (followers-only)
    /// or a mentioned account. 410 when deleted, 404 otherwise (never revealing that it exists).
    private func visiblePost(_ request: Request, _ context: NodeRequestContext) async throws -> (Post, PostToAS.Parts) {
        let username = try context.parameters.require("username")
        let id = try context.parameters.require("id", as: Int64.self)
        let uri = node.urls.status(username, id: id)
        let post = try await node.database.read { db in try db.posts.find(id: id) }
        if let post, post.local, post.uri == uri, try await mayFetch(post, request) {
            return (post, try await node.database.read { db in try PostToAS.Parts.read(post, in: db) })
        }
        let deleted = try await node.database.read { try $0.accounts.tombstone(uri: uri) != nil }
        throw deleted ? NodeError.gone("Post deleted") : NodeError.notFound("Record not found")
    }

    private func mayFetch(_ post: Post, _ request: Request) async throws -> Bool {
        if post.visibility == .public || post.visibility == .unlisted { return true }
        guard let fetcher = await InboxAuthenticator(node: node).fetcher(of: request) else { return false }
        return try await node.database.read { db in
            try PostVisibility.canSee(post, viewer: fetcher.id, in: db)
        }
    }
}
