@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// Registration modes over real HTTP: approval (reason required, pending accounts refused until
/// a moderator approves, rejected ones deleted), closed (invites only), and invite links.
@Suite("Registration modes, approval and invites")
struct RegistrationTests {
    static let adminScopes = "read write admin:read admin:write"

    static func signUp(_ client: any TestClientProtocol, _ appToken: String, _ name: String,
                       extra: [String: Any] = [:]) async throws -> TestResponse {
        var body: [String: Any] = ["username": name, "email": "\(name)@example.test", "password": "long enough secret", "agreement": true]
        body.merge(extra) { $1 }
        return try await client.api(.post, "/api/v1/accounts", token: appToken, json: body)
    }

    static func details(_ response: TestResponse) -> [String: [[String: String]]] {
        response.json?["details"] as? [String: [[String: String]]] ?? [:]
    }

    @Test("approval mode: a reason is required, the pending account is refused until approved; rejecting deletes it")
    func approvalFlow() async throws {
        let t = try TestNode.make { $0.registrations = .approval }
        defer { t.remove() }
        let (mod, modToken) = try await t.user("moira", scopes: Self.adminScopes)
        try t.node.accounts.setRole("moderator", of: mod.username)
        try await t.withLiveClient { client in
            let (app, appToken) = try await SignUpTests.appToken(client)
            let noReason = try await Self.signUp(client, appToken, "newbie")
            #expect(noReason.status == .unprocessableContent)
            #expect(Self.details(noReason)["reason"]?.first?["error"] == "ERR_BLANK")

            let pending = try await Self.signUp(client, appToken, "newbie", extra: ["reason": "I take photos of herons"])
            #expect(pending.status == .ok)
            let token = try #require(pending.json?["access_token"] as? String)
            let refused = try await client.api(.get, "/api/v1/accounts/verify_credentials", token: token)
            #expect(refused.status == .forbidden)
            #expect(refused.json?["error"] as? String == "Your login is currently pending approval")
            let login = try await client.postForm("/oauth/token", [
                ("grant_type", "password"), ("username", "newbie@example.test"), ("password", "long enough secret"),
                ("client_id", app.clientId), ("client_secret", app.clientSecret),
            ])
            #expect(login.status == .forbidden && login.json?["error"] as? String == "Your login is currently pending approval")

            let listed = try await client.api(.get, "/api/v2/admin/accounts?status=pending", token: modToken)
            let entry = try #require(listed.jsonArray?.first)
            #expect(listed.jsonArray?.count == 1)
            #expect(entry["username"] as? String == "newbie" && entry["approved"] as? Bool == false)
            #expect(entry["invite_request"] as? String == "I take photos of herons")
            let pendingId = try #require(entry["id"] as? String)
            #expect(try await client.api(.get, "/api/v1/accounts?id[]=\(pendingId)", token: modToken).text == "[]", "no account while pending")
            #expect(try await client.api(.get, "/api/v1/accounts/\(pendingId)", token: modToken).status == .notFound)
            #expect(try await client.api(.get, "/api/v1/accounts/lookup?acct=newbie", token: modToken).status == .notFound)
            #expect(try await client.api(.get, "/api/v1/admin/accounts?pending=true", token: modToken).jsonArray?.count == 1)
            let active = try await client.api(.get, "/api/v2/admin/accounts?status=active", token: modToken).jsonArray ?? []
            #expect(!active.contains { $0["username"] as? String == "newbie" }, "a pending account is not active")

            let actor: HTTPFields = [.accept: "application/activity+json"]
            #expect(try await client.api(.get, "/users/newbie", headers: actor).status == .notFound, "no actor while pending")
            let id = try #require(entry["id"] as? String)
            let approved = try await client.api(.post, "/api/v1/admin/accounts/\(id)/approve", token: modToken)
            #expect(approved.status == .ok && approved.json?["approved"] as? Bool == true)
            #expect(try await client.api(.get, "/api/v1/accounts/verify_credentials", token: token).status == .ok)
            #expect(try await client.api(.get, "/users/newbie", headers: actor).status == .ok)
            #expect(try await client.api(.post, "/api/v1/admin/accounts/\(id)/approve", token: modToken).status == .forbidden)
            #expect(try await client.api(.post, "/api/v1/admin/accounts/\(id)/reject", token: modToken).status == .forbidden,
                    "an approved account cannot be rejected")

            let second = try await Self.signUp(client, appToken, "spammer", extra: ["reason": "buy pills"])
            let spammerId = try await t.node.accounts.local("spammer").id
            #expect(second.status == .ok)
            let rejected = try await client.api(.post, "/api/v1/admin/accounts/\(spammerId)/reject", token: modToken)
            #expect(rejected.status == .ok && rejected.json?["username"] as? String == "spammer")
            await #expect(throws: NodeError.self) { try await t.node.accounts.local("spammer") }
            let again = try await Self.signUp(client, appToken, "spammer", extra: ["reason": "second try"])
            #expect(again.status == .ok, "a rejected sign-up's name is free again")
        }
    }

    @Test("the instance documents tell apps the mode: approval and closed")
    func instanceFields() async throws {
        for (mode, enabled, approval) in [(RegistrationMode.approval, true, true), (.closed, false, false), (.open, true, false)] {
            let t = try TestNode.make { $0.registrations = mode }
            defer { t.remove() }
            try await t.withClient { client in
                let v1 = try #require(try await client.api(.get, "/api/v1/instance").json)
                #expect(v1["registrations"] as? Bool == enabled && v1["approval_required"] as? Bool == approval)
                #expect(v1["invites_enabled"] as? Bool == false)
                let v2 = try #require(try await client.api(.get, "/api/v2/instance").json?["registrations"] as? [String: Any])
                #expect(v2["enabled"] as? Bool == enabled && v2["approval_required"] as? Bool == approval)
                #expect((v2["message"] is NSNull) == (mode == .open), "\(mode): \(v2)")
            }
        }
    }

    @Test("closed mode: sign-up only with a valid invite, which skips approval; used-up and expired invites are refused")
    func invites() async throws {
        let t = try TestNode.make { $0.registrations = .closed }
        defer { t.remove() }
        let (ada, _) = try await t.user("ada")
        let registrations = RegistrationService(node: t.node)
        let once = try registrations.createInvite(maxUses: 1, expiresInHours: 24, by: ada.id)
        #expect(once.url == "http://social.test/invite/\(once.invite.code)")
        let expired = try registrations.createInvite(maxUses: nil, expiresInHours: 1, by: nil)
        try await t.node.database.writeSQL { db in
            try db.execute(sql: "UPDATE invites SET expires_at = ? WHERE id = ?", arguments: [Date().addingTimeInterval(-60), expired.invite.id])
        }
        try await t.withLiveClient { client in
            let (_, appToken) = try await SignUpTests.appToken(client)
            #expect(try await Self.signUp(client, appToken, "walkin").status == .forbidden)
            let unknown = try await Self.signUp(client, appToken, "walkin", extra: ["invite_code": "nosuchcode"])
            #expect(unknown.status == .unprocessableContent && Self.details(unknown)["invite_code"]?.first?["error"] == "ERR_INVALID")
            let late = try await Self.signUp(client, appToken, "walkin", extra: ["invite_code": expired.invite.code])
            #expect(Self.details(late)["invite_code"]?.first?["description"] == "has expired")

            let invited = try await Self.signUp(client, appToken, "friend", extra: ["invite_code": once.invite.code])
            #expect(invited.status == .ok)
            let token = try #require(invited.json?["access_token"] as? String)
            #expect(try await client.api(.get, "/api/v1/accounts/verify_credentials", token: token).status == .ok)
            let usedUp = try await Self.signUp(client, appToken, "another", extra: ["invite_code": once.invite.code])
            #expect(Self.details(usedUp)["invite_code"]?.first?["description"] == "has been used up")
            #expect(try t.node.accounts.listLocal().map(\.account.username).sorted() == ["ada", "friend"])

            let page = try await client.api(.get, "/invite/\(once.invite.code)")
            #expect(page.status == .gone)
            #expect(try await client.api(.get, "/invite/nosuchcode").status == .notFound)
        }
    }

    @Test("an invite page names who invited and the code; an invite skips approval in approval mode")
    func invitePageAndApproval() async throws {
        let t = try TestNode.make { $0.registrations = .approval; $0.nodeName = "Heron Photos" }
        defer { t.remove() }
        let (ada, _) = try await t.user("ada")
        let invite = try RegistrationService(node: t.node).createInvite(maxUses: 5, expiresInHours: nil, by: ada.id).invite
        try await t.withLiveClient { client in
            let page = try await client.api(.get, "/invite/\(invite.code)")
            #expect(page.status == .ok && page.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(page.text.contains("@ada@social.test") && page.text.contains(invite.code) && page.text.contains("Heron Photos"))
            let (_, appToken) = try await SignUpTests.appToken(client)
            let invited = try await Self.signUp(client, appToken, "friend", extra: ["invite_code": invite.code])
            let token = try #require(invited.json?["access_token"] as? String)
            #expect(try await client.api(.get, "/api/v1/accounts/verify_credentials", token: token).status == .ok, "no approval needed")
            #expect(try await t.node.database.read { db in try db.registrations.invite(code: invite.code)?.uses } == 1)
        }
    }
}
