import Core
import Foundation
import Hummingbird
import Storage

/// `GET /invite/CODE`: the page an invite link opens. It says who invited the person to which
/// node, shows the rules, and how to sign up with the code in an app (`invite_code` of
/// `POST /api/v1/accounts`). Unknown codes answer 404, expired or used-up ones 410.
struct InviteController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("invite/:code", use: show)
    }

    /// The invite page.
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let code = context.parameters.get("code") ?? ""
        let invite: Invite
        do { invite = try await RegistrationService(node: node).usableInvite(code: code) } catch {
            let status: HTTPResponse.Status = error.status == .gone ? .gone : .notFound
            return PlainPage.render(title: "Invite not valid", status: status, body: """
                <h1>This invite cannot be used</h1>
                <p>The invite code \(HTMLText.escape(error.message)). Ask the person who sent it for a new one.</p>
                """)
        }
        let (inviter, rules) = try await details(of: invite)
        return PlainPage.render(title: "Join \(node.configuration.nodeName)", status: .ok, body: page(invite, inviter: inviter, rules: rules))
    }

    private func details(of invite: Invite) async throws -> (Account?, [InstanceRule]) {
        try await node.database.read { db in
            (try invite.accountId.flatMap { try db.accounts.find(id: $0) }, try db.moderation.rules())
        }
    }

    private func page(_ invite: Invite, inviter: Account?, rules: [InstanceRule]) -> String {
        let name = HTMLText.escape(node.configuration.nodeName), domain = HTMLText.escape(node.urls.domain)
        let who = inviter.map { "@\(HTMLText.escape($0.username))@\(domain)" } ?? "The administrators of \(domain)"
        let ruleItems = rules.map { "<li>\(HTMLText.escape($0.text))</li>" }.joined()
        let expiry = invite.expiresAt.map { "<p>The invite works until \($0.formatted(.iso8601)).</p>" } ?? ""
        return """
            <h1>You are invited to join \(name)</h1>
            <p>\(who) invited you to \(name) (\(domain)), a photo-sharing server of the fediverse.</p>
            \(rules.isEmpty ? "" : "<h2>Rules</h2><ol>\(ruleItems)</ol>")
            <h2>How to sign up</h2>
            <p>In a Mastodon app, choose the server <strong>\(domain)</strong> and sign up; give the invite code
            <strong>\(HTMLText.escape(invite.code))</strong> when asked. With the code no approval is needed.</p>
            \(expiry)
            """
    }
}
