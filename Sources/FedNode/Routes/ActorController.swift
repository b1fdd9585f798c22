import Activity
import Core
import Foundation
import Hummingbird
import Storage

/// Local actors: `GET /users/NAME` (ActivityPub `Person`, or the HTML profile for browsers),
/// `GET /@NAME`, and the outbox, followers, following and featured collections.
struct ActorController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("users/:username", use: actor)
        router.get("@{username}", use: actor)
        router.get("users/:username/outbox", use: outbox)
        router.get("users/:username/followers", use: followers)
        router.get("users/:username/following", use: following)
        router.get("users/:username/collections/featured", use: featured)
    }

    /// The actor document or profile page, by content negotiation (406 when neither fits).
    /// Browsers get the web app's profile page, or its friendly page for an unknown account.
    @Sendable func actor(_ request: Request, context: NodeRequestContext) async throws -> Response {
        // `/@name@domain`: a remote account's page in the web app.
        if let name = context.parameters.get("username"), name.contains("@") {
            return await WebProfileController(node: node).remote(request, acct: name)
        }
        switch ContentNegotiation.preferred(accept: request.headers[.accept]) {
        case .activityJSON:
            let account = try await localAccount(context)
            let urls = node.urls
            let person = try await node.database.read { db in try AccountToAS.person(account, urls: urls, in: db) }
            return JSONResponse.bytes(person.encoded(), contentType: JSONResponse.activity, headers: [.vary: "Accept"])
        case .html:
            let account: Account
            do { account = try await localAccount(context) } catch let error as NodeError {
                return await WebContext.of(request, node: node).error(error.status, error.status == .gone ? "This account is gone." : "There is no such account.")
            }
            return await WebProfileController(node: node).page(request, account: account)
        case nil:
            throw NodeError.notAcceptable("Not acceptable: use application/activity+json or text/html")
        }
    }

    /// `GET /users/NAME/outbox`: the account's public Create and Announce activities, newest
    /// first, paged with `max_id`.
    @Sendable func outbox(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let account = try await localAccount(context)
        let collection = CollectionPager(id: node.urls.outbox(account.username), query: request.uri.queryParameters, urls: node.urls)
        let document = try await node.database.read { db in
            try collection.outbox(of: account, in: db)
        }
        return JSONResponse.bytes(document.encoded(), contentType: JSONResponse.activity)
    }

    /// `GET /users/NAME/followers`: accepted followers' actor ids, paged.
    @Sendable func followers(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await relations(request, context, followers: true)
    }

    /// `GET /users/NAME/following`: accepted followees' actor ids, paged.
    @Sendable func following(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await relations(request, context, followers: false)
    }

    /// `GET /users/NAME/collections/featured`: the pinned public and unlisted posts as an
    /// `OrderedCollection` of Notes, newest pin first, as Mastodon serves `featured`.
    @Sendable func featured(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let account = try await localAccount(context)
        let urls = node.urls
        let notes = try await node.database.read { db -> [ASReference] in
            try db.pins.featuredPosts(of: account.id, limit: PinService.maxPins).map { post in
                var note = PostToAS(urls: urls).note(post, parts: try .read(post, in: db))
                note.context = nil
                return .object(note)
            }
        }
        let collection = ASObject(id: urls.featured(account.username), type: "OrderedCollection", context: ASContext.standard,
                                  totalItems: notes.count, items: notes)
        return JSONResponse.bytes(collection.encoded(), contentType: JSONResponse.activity)
    }

    private func relations(_ request: Request, _ context: NodeRequestContext, followers: Bool) async throws -> Response {
        let account = try await localAccount(context)
        let id = followers ? node.urls.followers(account.username) : node.urls.following(account.username)
        let collection = CollectionPager(id: id, query: request.uri.queryParameters, urls: node.urls)
        let document = try await node.database.read { db in
            try collection.relations(of: account, followers: followers, in: db)
        }
        return JSONResponse.bytes(document.encoded(), contentType: JSONResponse.activity)
    }

    private func localAccount(_ context: NodeRequestContext) async throws -> Account {
        let username = try context.parameters.require("username")
        let account = try await node.database.read { db in
            // An account waiting for approval does not exist for other servers yet.
            let found = try db.accounts.findLocal(username: username).flatMap { try db.registrations.isPending($0.id) ? nil : $0 }
            return (found, try db.accounts.tombstone(uri: node.urls.actor(username)), try found.map { try db.moderation.isSuspended($0.id) } ?? false)
        }
        // A suspended account is gone for other servers, as Mastodon answers it.
        if account.2 { throw NodeError.gone("Account suspended") }
        if let found = account.0 { return found }
        if account.1 != nil { throw NodeError.gone("Account deleted") }
        throw NodeError.notFound("Record not found")
    }
}
