@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import FedNode

@Suite("Sign-up: POST /api/v1/accounts with an app token")
struct SignUpTests {
    /// An app token from the client-credentials grant, as apps get one before sign-up.
    static func appToken(_ client: any TestClientProtocol, scope: String = "read write") async throws -> (TestApp, String) {
        let app = try await client.registerApp(scopes: "read write follow")
        let response = try await client.postForm("/oauth/token", [("grant_type", "client_credentials"), ("scope", scope),
                                                                   ("client_id", app.clientId), ("client_secret", app.clientSecret)])
        #expect(response.status == .ok)
        return (app, try #require(response.json?["access_token"] as? String))
    }

    static var signUp: [String: Any] { ["username": "newbie", "email": "newbie@example.test", "password": "long enough secret",
                                        "agreement": true, "locale": "en"] }

    @Test("Client credentials, then sign-up: a working token for the new person, who can then log in")
    func signUp() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        try await t.withClient { client in
            let (app, appToken) = try await Self.appToken(client)
            let response = try await client.api(.post, "/api/v1/accounts", token: appToken, json: Self.signUp)
            #expect(response.status == .ok)
            let json = try #require(response.json)
            #expect(json["token_type"] as? String == "Bearer")
            #expect(json["scope"] as? String == "read write")
            #expect(json["created_at"] is Int)
            let token = try #require(json["access_token"] as? String)
            #expect(try await client.api(.get, "/api/v1/preferences", token: token).status == .ok)
            #expect(try await client.api(.get, "/api/v1/apps/verify_credentials", token: token).status == .ok)
            #expect(try await t.node.accounts.local("newbie").uri == "http://social.test/users/newbie")
            let login = try await client.passwordToken(app, email: "newbie@example.test", password: "long enough secret")
            #expect(login["access_token"] is String)
        }
    }

    @Test("Invalid fields are 422 with Mastodon's per-field details")
    func validation() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        _ = try await t.user("taken")
        try await t.withClient { client in
            let (_, appToken) = try await Self.appToken(client)
            let bad = try await client.api(.post, "/api/v1/accounts", token: appToken, json: [
                "username": "", "email": "not-an-email", "password": "short", "agreement": false,
            ])
            #expect(bad.status == .unprocessableContent)
            let json = try #require(bad.json)
            #expect((json["error"] as? String)?.hasPrefix("Validation failed: ") == true)
            let details = try #require(json["details"] as? [String: [[String: String]]])
            #expect(details["username"]?.first?["error"] == "ERR_BLANK")
            #expect(details["email"]?.first?["error"] == "ERR_INVALID")
            #expect(details["password"]?.first?["error"] == "ERR_TOO_SHORT")
            #expect(details["agreement"]?.first?["error"] == "ERR_ACCEPTED")

            var body = Self.signUp
            body["username"] = "TAKEN"
            let taken = try await client.api(.post, "/api/v1/accounts", token: appToken, json: body)
            #expect(taken.status == .unprocessableContent)
            let takenDetails = taken.json?["details"] as? [String: [[String: String]]]
            #expect(takenDetails?["username"]?.first?["error"] == "ERR_TAKEN")
            #expect(taken.json?["error"] as? String == "Validation failed: Username has already been taken")

            body["username"] = "admin"
            let reserved = try await client.api(.post, "/api/v1/accounts", token: appToken, json: body)
            #expect((reserved.json?["details"] as? [String: [[String: String]]])?["username"]?.first?["error"] == "ERR_RESERVED")
            #expect(try t.node.accounts.listLocal().count == 1)
        }
    }

    @Test("Sign-up needs a token with write:accounts; closed registrations are 403")
    func authorization() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        try await t.withClient { client in
            #expect(try await client.api(.post, "/api/v1/accounts", json: Self.signUp).status == .unauthorized)
            let (_, readOnly) = try await Self.appToken(client, scope: "read")
            let forbidden = try await client.api(.post, "/api/v1/accounts", token: readOnly, json: Self.signUp)
            #expect(forbidden.status == .forbidden)
            #expect(forbidden.json?["error"] as? String == "This action is outside the authorized scopes")
            #expect(try t.node.accounts.listLocal().isEmpty)
        }

        let closed = try TestNode.make { $0.openRegistrations = false }
        defer { closed.remove() }
        try await closed.withClient { client in
            let (_, appToken) = try await Self.appToken(client)
            let response = try await client.api(.post, "/api/v1/accounts", token: appToken, json: Self.signUp)
            #expect(response.status == .forbidden)
            #expect(try closed.node.accounts.listLocal().isEmpty)
        }
    }

    @Test("Sign-ups are throttled per address")
    func rateLimit() async throws {
        let t = try TestNode.make { $0.rateLimits.signUp = .init(limit: 1, window: 1800) }
        defer { t.remove() }
        try await t.withClient { client in
            let (_, appToken) = try await Self.appToken(client)
            let first = try await client.api(.post, "/api/v1/accounts", token: appToken, json: Self.signUp)
            #expect(first.status == .ok)
            #expect(first.headers[.init("X-RateLimit-Remaining")!] == "0")
            var body = Self.signUp
            body["username"] = "second"
            body["email"] = "second@example.test"
            let second = try await client.api(.post, "/api/v1/accounts", token: appToken, json: body)
            #expect(second.status == .tooManyRequests)
            #expect(second.headers[.init("X-RateLimit-Limit")!] == "1")
            #expect(second.headers[.init("X-RateLimit-Reset")!] != nil)
            #expect(try t.node.accounts.listLocal().count == 1)
        }
    }
}
