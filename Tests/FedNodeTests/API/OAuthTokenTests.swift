@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import FedNode

@Suite("OAuth: token grants, refresh, revoke, metadata, rate limits")
struct OAuthTokenTests {
    @Test("Password grant: JSON body or HTTP Basic client; wrong password, foreign scope, bad client and unknown grant refused")
    func passwordGrant() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        _ = try await t.user("alice")
        try await t.withClient { client in
            let app = try await client.registerApp(scopes: "read write")
            let json = try await client.api(.post, "/oauth/token", json: [
                "grant_type": "password", "username": "alice@example.test", "password": "correct horse battery",
                "client_id": app.clientId, "client_secret": app.clientSecret, "scope": "read",
            ])
            #expect(json.status == .ok)
            #expect(json.json?["scope"] as? String == "read")
            #expect(json.headers[.cacheControl] == "no-store")

            let basic = "Basic " + Data("\(app.clientId):\(app.clientSecret)".utf8).base64EncodedString()
            let viaBasic = try await client.postForm("/oauth/token", [("grant_type", "password"), ("username", "alice@example.test"),
                                                                       ("password", "correct horse battery")], headers: [.authorization: basic])
            #expect(viaBasic.status == .ok)
            #expect(viaBasic.json?["scope"] as? String == "read")

            let wrong = try await client.postForm("/oauth/token", [("grant_type", "password"), ("username", "alice@example.test"), ("password", "nope"),
                                                                    ("client_id", app.clientId), ("client_secret", app.clientSecret)])
            #expect(wrong.status == .badRequest)
            #expect(wrong.json?["error"] as? String == "invalid_grant")
            #expect(wrong.json?["access_token"] == nil)

            let scope = try await client.postForm("/oauth/token", [("grant_type", "password"), ("username", "alice@example.test"),
                                                                    ("password", "correct horse battery"), ("scope", "read follow"),
                                                                    ("client_id", app.clientId), ("client_secret", app.clientSecret)])
            #expect(scope.json?["error"] as? String == "invalid_scope")

            let badBasic = "Basic " + Data("\(app.clientId):wrong".utf8).base64EncodedString()
            let badClient = try await client.postForm("/oauth/token", [("grant_type", "client_credentials")], headers: [.authorization: badBasic])
            #expect(badClient.status == .unauthorized)
            #expect(badClient.json?["error"] as? String == "invalid_client")
            #expect(badClient.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true)

            let grant = try await client.postForm("/oauth/token", [("grant_type", "implicit"), ("client_id", app.clientId), ("client_secret", app.clientSecret)])
            #expect(grant.json?["error"] as? String == "unsupported_grant_type")
            #expect(try await client.postForm("/oauth/token", [("client_id", app.clientId)]).json?["error"] as? String == "invalid_request")
        }
    }

    @Test("Refresh rotates: the old access and refresh tokens stop working")
    func refreshRotation() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        _ = try await t.user("alice")
        try await t.withClient { client in
            let app = try await client.registerApp()
            let first = try await client.passwordToken(app, email: "alice@example.test")
            let oldAccess = try #require(first["access_token"] as? String)
            let oldRefresh = try #require(first["refresh_token"] as? String)
            func refresh(_ token: String) async throws -> TestResponse {
                try await client.postForm("/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", token),
                                                           ("client_id", app.clientId), ("client_secret", app.clientSecret)])
            }
            let second = try await refresh(oldRefresh)
            #expect(second.status == .ok)
            #expect(second.json?["scope"] as? String == "read write")
            let newAccess = try #require(second.json?["access_token"] as? String)
            #expect(newAccess != oldAccess)
            #expect(try await client.api(.get, "/api/v1/apps/verify_credentials", token: oldAccess).status == .unauthorized)
            #expect(try await client.api(.get, "/api/v1/apps/verify_credentials", token: newAccess).status == .ok)
            let reused = try await refresh(oldRefresh)
            #expect(reused.status == .badRequest)
            #expect(reused.json?["error"] as? String == "invalid_grant")
        }
    }

    @Test("Revoke logs out: the token answers 401 afterwards; another app's token is refused")
    func revoke() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        _ = try await t.user("alice")
        try await t.withClient { client in
            let app = try await client.registerApp()
            let other = try await client.registerApp(name: "Other")
            let token = try #require(try await client.passwordToken(app, email: "alice@example.test")["access_token"] as? String)
            #expect(try await client.api(.get, "/api/v1/preferences", token: token).status == .ok)

            let foreign = try await client.postForm("/oauth/revoke", [("token", token), ("client_id", other.clientId), ("client_secret", other.clientSecret)])
            #expect(foreign.status == .forbidden)
            let badClient = try await client.postForm("/oauth/revoke", [("token", token), ("client_id", app.clientId), ("client_secret", "x")])
            #expect(badClient.status == .unauthorized)
            #expect(try await client.api(.get, "/api/v1/preferences", token: token).status == .ok)

            let revoked = try await client.postForm("/oauth/revoke", [("token", token), ("client_id", app.clientId), ("client_secret", app.clientSecret)])
            #expect(revoked.status == .ok)
            #expect(revoked.text == "{}")
            #expect(try await client.api(.get, "/api/v1/preferences", token: token).status == .unauthorized)
            let unknown = try await client.postForm("/oauth/revoke", [("token", "unknown"), ("client_id", app.clientId), ("client_secret", app.clientSecret)])
            #expect(unknown.status == .ok)
        }
    }

    @Test("App tokens from client credentials verify the app; tokens without an app do not")
    func verifyAppCredentials() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        let (_, bare) = try await t.user("alice")
        try await t.withClient { client in
            let app = try await client.registerApp(name: "Viewer")
            let response = try await client.postForm("/oauth/token", [("grant_type", "client_credentials"), ("client_id", app.clientId),
                                                                       ("client_secret", app.clientSecret)])
            #expect(response.json?["refresh_token"] == nil)
            let appToken = try #require(response.json?["access_token"] as? String)
            let verified = try await client.api(.get, "/api/v1/apps/verify_credentials", token: appToken)
            #expect(verified.json?["name"] as? String == "Viewer")
            #expect(try await client.api(.get, "/api/v1/apps/verify_credentials").status == .unauthorized)
            #expect(try await client.api(.get, "/api/v1/apps/verify_credentials", token: bare).status == .unauthorized)
            #expect(try await client.api(.get, "/api/v1/apps/verify_credentials", token: "forged").status == .unauthorized)
        }
    }

    @Test("RFC 8414 metadata names the endpoints and what they support")
    func metadata() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        try await t.withClient { client in
            let json = try #require(try await client.api(.get, "/.well-known/oauth-authorization-server").json)
            #expect(json["issuer"] as? String == "http://social.test/")
            #expect(json["authorization_endpoint"] as? String == "http://social.test/oauth/authorize")
            #expect(json["token_endpoint"] as? String == "http://social.test/oauth/token")
            #expect(json["revocation_endpoint"] as? String == "http://social.test/oauth/revoke")
            #expect(json["app_registration_endpoint"] as? String == "http://social.test/api/v1/apps")
            #expect(json["response_types_supported"] as? [String] == ["code"])
            #expect(json["code_challenge_methods_supported"] as? [String] == ["S256"])
            #expect(json["grant_types_supported"] as? [String] == ["authorization_code", "password", "client_credentials", "refresh_token"])
            #expect((json["scopes_supported"] as? [String])?.contains("write:statuses") == true)
            #expect(json["token_endpoint_auth_methods_supported"] as? [String] == ["client_secret_basic", "client_secret_post"])
        }
    }

    @Test("Token and login requests are throttled per client address with X-RateLimit headers")
    func rateLimits() async throws {
        let t = try TestNode.make { $0.rateLimits.token = .init(limit: 2, window: 300); $0.rateLimits.authorize = .init(limit: 1, window: 300) }
        defer { t.remove() }
        _ = try await t.user("alice")
        try await t.withClient { client in
            let app = try await client.registerApp()
            let fields = [("grant_type", "client_credentials"), ("client_id", app.clientId), ("client_secret", app.clientSecret)]
            let from: HTTPFields = [.init("X-Forwarded-For")!: "203.0.113.7"]
            let first = try await client.postForm("/oauth/token", fields, headers: from)
            #expect(first.status == .ok)
            #expect(first.headers[.init("X-RateLimit-Limit")!] == "2")
            #expect(first.headers[.init("X-RateLimit-Remaining")!] == "1")
            #expect(try await client.postForm("/oauth/token", fields, headers: from).status == .ok)
            let limited = try await client.postForm("/oauth/token", fields, headers: from)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.init("X-RateLimit-Limit")!] == "2")
            #expect(limited.headers[.init("X-RateLimit-Remaining")!] == "0")
            #expect(limited.headers[.init("X-RateLimit-Reset")!] != nil)
            #expect(limited.json?["error"] as? String == "Too many requests")
            // Another address has its own window.
            #expect(try await client.postForm("/oauth/token", fields, headers: [.init("X-Forwarded-For")!: "198.51.100.9"]).status == .ok)

            let login = OAuthTests.authorizeQuery(app) + [("email", "alice@example.test"), ("password", "wrong password")]
            #expect(try await client.postForm("/oauth/authorize", login, headers: from).status == .unauthorized)
            #expect(try await client.postForm("/oauth/authorize", login, headers: from).status == .tooManyRequests)
        }
    }
}
