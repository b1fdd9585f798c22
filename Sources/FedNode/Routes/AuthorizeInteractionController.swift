import Core
import Foundation
import HTTPTypes
import Hummingbird
import Storage

/// `/authorize_interaction?uri=`: where other servers send their users to follow an account or
/// like a post of the fediverse from this node (WebFinger's `ostatus.org/schema/1.0/subscribe`
/// template points here, as Mastodon's does). The page shows what `uri` names (an `acct:`
/// handle, a profile or a post, fetched once and stored when unknown) and asks the person to sign
/// in to act; without JavaScript, with the sign-in limits of the OAuth page.
struct AuthorizeInteractionController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("authorize_interaction", use: show)
        router.post("authorize_interaction", use: act)
    }

    /// `GET /authorize_interaction?uri=`: the account or post, and the sign-in form.
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        _ = try await node.throttle("authorize", rule: node.configuration.rateLimits.authorize, request: request, context: context)
        let uri = request.uri.queryParameters["uri"].map(String.init) ?? ""
        let found: RemoteLookup.Found
        do { found = try await lookup(uri) } catch { return InteractionPages.notFound(uri: uri, reason: error.message) }
        return InteractionPages.form(found, uri: uri, nodeName: node.configuration.nodeName)
    }

    /// `POST /authorize_interaction` (`uri`, `email`, `password`): signs in (trusting the
    /// browser, `DeviceTrust`) and follows the account, or likes the post.
    @Sendable func act(_ request: Request, context: NodeRequestContext) async throws -> Response {
        _ = try await node.throttle("authorize", rule: node.configuration.rateLimits.authorize, request: request, context: context)
        let params = try await APIParams.read(request)
        let uri = params.string("uri") ?? ""
        let found: RemoteLookup.Found
        do { found = try await lookup(uri) } catch { return InteractionPages.notFound(uri: uri, reason: error.message) }
        let email = params.string("email") ?? ""
        let attempt = SignInAttempt(email: email, password: params.string("password") ?? "", browser: request, context: context, node: node)
        let account: Account?
        do { account = try await node.signIn(attempt) } catch let refused as NodeError where refused.status == .forbidden {
            return InteractionPages.form(found, uri: uri, nodeName: node.configuration.nodeName, email: email,
                                         error: refused.message + ".", status: refused.status)
        } catch let locked as RateLimitExceeded {
            var page = InteractionPages.form(found, uri: uri, nodeName: node.configuration.nodeName, email: email,
                                             error: "Too many failed sign-ins for this account. Try again later.", status: .tooManyRequests)
            page.headers.append(contentsOf: locked.headers)
            return page
        }
        guard let account, try await !isLockedOut(account) else {
            return InteractionPages.form(found, uri: uri, nodeName: node.configuration.nodeName, email: email,
                                         error: "Invalid email or password.", status: .unauthorized)
        }
        var done = try await interact(found, as: account)
        done.headers.append(HTTPField(name: .setCookie, value: try await DeviceTrust(node: node).remember(account, from: request)))
        return done
    }

    /// Follows the account or likes the post `found` names, as `account`.
    private func interact(_ found: RemoteLookup.Found, as account: Account) async throws -> Response {
        switch found {
        case .account(let target):
            guard target.id != account.id else { return InteractionPages.done("This is your own account.") }
            let follow = try await node.interactions.follow(target, by: account)
            return InteractionPages.done(follow.state == .accepted ? "You now follow @\(target.acct)."
                                         : "You asked to follow @\(target.acct); it takes effect when they (or their server) accept.")
        case .post(let post):
            try await node.interactions.like(post.id, by: account)
            return InteractionPages.done("You liked the post.")
        }
    }

    /// What `uri` names: `acct:user@host` or `user@host` through WebFinger, a URL through the
    /// same lookup as search with `resolve`.
    private func lookup(_ uri: String) async throws(NodeError) -> RemoteLookup.Found {
        let text = uri.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.count <= 2_048 else { throw .validation("Give the address of an account or a post") }
        if text.hasPrefix("http://") || text.hasPrefix("https://") { return try await RemoteLookup(node: node).find(text) }
        let handle = (text.lowercased().hasPrefix("acct:") ? String(text.dropFirst(5)) : text).trimmingCharacters(in: CharacterSet(charactersIn: "@"))
        let parts = handle.split(separator: "@", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw .validation("Not an account handle or a URL") }
        if parts[1].lowercased() == node.urls.domain.lowercased() {
            guard let local = try await AccountAccess(node: node).read({ db in try db.accounts.findLocal(username: parts[0]) }) else {
                throw .notFound("No such account here")
            }
            return .account(local)
        }
        return .account(try await node.remoteAccounts.resolve(username: parts[0], domain: parts[1]))
    }

    private func isLockedOut(_ account: Account) async throws(NodeError) -> Bool {
        try await AccountAccess(node: node).read { db in try db.moderation.isLockedOut(account.id) }
    }
}
