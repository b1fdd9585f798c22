@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Signatures
import Testing
@testable import FedNode

@Suite("OAuth: app registration and the authorization code flow with PKCE")
struct OAuthTests {
    /// RFC 7636 Appendix B.
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    /// The authorization request parameters of `app` with a PKCE challenge.
    static func authorizeQuery(_ app: TestApp, scope: String = "read write", state: String = "st&te=1") -> [(String, String)] {
        [("client_id", app.clientId), ("redirect_uri", app.redirectURI), ("response_type", "code"), ("scope", scope),
         ("state", state), ("code_challenge", challenge), ("code_challenge_method", "S256")]
    }

    /// Signs alice in through the form and returns the code from the redirect.
    static func authorize(_ client: any TestClientProtocol, _ app: TestApp) async throws -> String {
        let response = try await client.postForm("/oauth/authorize", authorizeQuery(app) + [("email", "alice@example.test"), ("password", "correct horse battery")])
        #expect(response.status == .found)
        let location = try #require(response.headers[.location])
        #expect(location.hasPrefix(app.redirectURI + "?"))
        return try #require(queryItems(of: location)["code"])
    }

    static func exchange(_ client: any TestClientProtocol, _ app: TestApp, code: String, verifier: String = verifier,
                         redirectURI: String? = nil) async throws -> TestResponse {
        try await client.postForm("/oauth/token", [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI ?? app.redirectURI),
            ("client_id", app.clientId), ("client_secret", app.clientSecret), ("code_verifier", verifier),
        ])
    }

    @Test("POST /api/v1/apps answers the CredentialApplication; several redirect URIs as array or newlines")
    func registerApp() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        try await t.withClient { client in
            let response = try await client.api(.post, "/api/v1/apps", json: [
                "client_name": "Photo App", "redirect_uris": ["https://app.example/cb", "photoapp://oauth"],
                "scopes": "read write:statuses", "website": "https://app.example",
            ])
            #expect(response.status == .ok)
            let json = try #require(response.json)
            #expect(Int64(json["id"] as? String ?? "") != nil)
            #expect(json["name"] as? String == "Photo App")
            #expect(json["website"] as? String == "https://app.example")
            #expect(json["redirect_uri"] as? String == "https://app.example/cb\nphotoapp://oauth")
            #expect(json["redirect_uris"] as? [String] == ["https://app.example/cb", "photoapp://oauth"])
            #expect(json["scopes"] as? [String] == ["read", "write:statuses"])
            #expect((json["client_id"] as? String)?.count ?? 0 >= 32)
            #expect((json["client_secret"] as? String)?.count ?? 0 >= 32)
            #expect(json["client_secret_expires_at"] as? Int == 0)
            #expect(json["vapid_key"] as? String == Base64URL.encode(t.node.vapidKey.publicKey))

            let form = try await client.postForm("/api/v1/apps", [("client_name", "Old App"), ("redirect_uris", "urn:ietf:wg:oauth:2.0:oob\nhttps://b.example/cb")])
            #expect(form.status == .ok)
            #expect(form.json?["redirect_uris"] as? [String] == ["urn:ietf:wg:oauth:2.0:oob", "https://b.example/cb"])
            #expect(form.json?["scopes"] as? [String] == ["read"])
            #expect(form.json?["website"] is NSNull)
        }
    }

    @Test("POST /api/v1/apps: unknown scope, bad redirect URI or no name is 422")
    func registerAppInvalid() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        try await t.withClient { client in
            let cases: [([String: Any], String)] = [
                (["client_name": "A", "redirect_uris": "https://a.example/cb", "scopes": "read launch:missiles"], "Scopes"),
                (["client_name": "A", "redirect_uris": "not a uri"], "Redirect URI"),
                (["client_name": "A", "redirect_uris": "/relative/cb"], "Redirect URI"),
                (["client_name": "A", "redirect_uris": "https://a.example/cb#frag"], "Redirect URI"),
                (["client_name": "A", "redirect_uris": "javascript:alert(1)"], "Redirect URI"),
                (["client_name": "A"], "Redirect URI"),
                (["redirect_uris": "https://a.example/cb"], "Name"),
            ]
            for (body, field) in cases {
                let response = try await client.api(.post, "/api/v1/apps", json: body)
                #expect(response.status == .unprocessableContent, "\(body)")
                let message = response.json?["error"] as? String ?? ""
                #expect(message.hasPrefix("Validation failed: ") && message.contains(field), "\(message)")
            }
        }
    }

    @Test("Authorization code with PKCE through the login form; the token verifies the app; codes are single-use")
    func authorizationCodeFlow() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        _ = try await t.user("alice")
        try await t.withClient { client in
            let app = try await client.registerApp(name: "<b>Snap</b> & Share")
            let path = "/oauth/authorize?" + formEncoded(Self.authorizeQuery(app))
            let page = try await client.execute(uri: path, method: .get)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(page.headers[.init("X-Frame-Options")!] == "DENY")
            #expect(page.text.contains("&lt;b&gt;Snap&lt;/b&gt; &amp; Share"))
            #expect(!page.text.contains("<b>Snap"))
            #expect(page.text.contains("name=\"password\""))
            #expect(page.text.contains("value=\"st&amp;te=1\""))

            let wrong = try await client.postForm("/oauth/authorize", Self.authorizeQuery(app) + [("email", "alice@example.test"), ("password", "wrong password")])
            #expect(wrong.status == .unauthorized)
            #expect(wrong.headers[.location] == nil)
            #expect(wrong.text.contains("Invalid email or password"))
            #expect(wrong.text.contains("value=\"alice@example.test\""))

            let submitted = try await client.postForm("/oauth/authorize", Self.authorizeQuery(app) + [("email", "alice@example.test"), ("password", "correct horse battery")])
            #expect(submitted.status == .found)
            let location = try #require(submitted.headers[.location])
            #expect(queryItems(of: location)["state"] == "st&te=1")
            let code = try #require(queryItems(of: location)["code"])

            let exchanged = try await Self.exchange(client, app, code: code)
            #expect(exchanged.status == .ok)
            let token = try #require(exchanged.json)
            #expect(token["token_type"] as? String == "Bearer")
            #expect(token["scope"] as? String == "read write")
            #expect(token["created_at"] is Int)
            #expect(token["refresh_token"] is String)
            let accessToken = try #require(token["access_token"] as? String)

            let verified = try await client.api(.get, "/api/v1/apps/verify_credentials", token: accessToken)
            #expect(verified.status == .ok)
            #expect(verified.json?["name"] as? String == "<b>Snap</b> & Share")
            #expect(verified.json?["client_secret"] == nil)

            let reused = try await Self.exchange(client, app, code: code)
            #expect(reused.status == .badRequest)
            #expect(reused.json?["error"] as? String == "invalid_grant")
        }
    }

    @Test("Token exchange refuses a wrong or missing PKCE verifier, another redirect URI and another app")
    func codeExchangeRefusals() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        _ = try await t.user("alice")
        try await t.withClient { client in
            let app = try await client.registerApp()
            let other = try await client.registerApp(name: "Other", redirectURI: app.redirectURI)

            let code = try await Self.authorize(client, app)
            let wrong = try await Self.exchange(client, app, code: code, verifier: String(repeating: "a", count: 43))
            #expect(wrong.status == .badRequest)
            #expect(wrong.json?["error"] as? String == "invalid_grant")
            #expect(wrong.json?["error_description"] is String)
            // A failed attempt uses the code up: an intercepted code cannot be retried.
            #expect(try await Self.exchange(client, app, code: code).status == .badRequest)

            let missing = try await client.postForm("/oauth/token", [
                ("grant_type", "authorization_code"), ("code", try await Self.authorize(client, app)), ("redirect_uri", app.redirectURI),
                ("client_id", app.clientId), ("client_secret", app.clientSecret),
            ])
            #expect(missing.json?["error"] as? String == "invalid_grant")

            let elsewhere = try await Self.exchange(client, app, code: try await Self.authorize(client, app), redirectURI: "https://evil.example/cb")
            #expect(elsewhere.json?["error"] as? String == "invalid_grant")

            let stolen = try await Self.exchange(client, other, code: try await Self.authorize(client, app))
            #expect(stolen.json?["error"] as? String == "invalid_grant")

            let badSecret = try await Self.exchange(client, TestApp(clientId: app.clientId, clientSecret: "nope", redirectURI: app.redirectURI),
                                                    code: try await Self.authorize(client, app))
            #expect(badSecret.status == .unauthorized)
            #expect(badSecret.json?["error"] as? String == "invalid_client")
        }
    }

    @Test("Plain PKCE, and a redirect URI with its own query keeps it")
    func plainChallenge() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        _ = try await t.user("alice")
        try await t.withClient { client in
            let app = try await client.registerApp(redirectURI: "https://app.example/cb?tenant=7")
            let login = [("client_id", app.clientId), ("redirect_uri", app.redirectURI), ("response_type", "code"), ("code_challenge", Self.verifier),
                         ("email", "alice@example.test"), ("password", "correct horse battery")]
            let submitted = try await client.postForm("/oauth/authorize", login)
            let location = try #require(submitted.headers[.location])
            #expect(location.hasPrefix("https://app.example/cb?tenant=7&code="))
            let code = try #require(queryItems(of: location)["code"])
            let token = try await Self.exchange(client, app, code: code)
            #expect(token.status == .ok)
            #expect(token.json?["scope"] as? String == "read")

            let second = try #require(queryItems(of: try await client.postForm("/oauth/authorize", login).headers[.location] ?? "")["code"])
            #expect(try await Self.exchange(client, app, code: second, verifier: Self.challenge).status == .badRequest)
        }
    }

    @Test("Authorize: unknown client or unregistered redirect URI is a 400 page, never a redirect; other errors go to the app")
    func authorizeErrors() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        _ = try await t.user("alice")
        try await t.withClient { client in
            let app = try await client.registerApp(scopes: "read")
            func get(_ fields: [(String, String)]) async throws -> TestResponse {
                try await client.execute(uri: "/oauth/authorize?" + formEncoded(fields), method: .get)
            }
            let unknown = try await get([("client_id", "nope"), ("redirect_uri", app.redirectURI), ("response_type", "code")])
            #expect(unknown.status == .badRequest)
            #expect(unknown.headers[.location] == nil)
            let evil = try await get([("client_id", app.clientId), ("redirect_uri", "https://evil.example/cb"), ("response_type", "code")])
            #expect(evil.status == .badRequest)
            #expect(evil.headers[.location] == nil)
            #expect(!evil.text.contains("<script"))

            let token = try await get([("client_id", app.clientId), ("redirect_uri", app.redirectURI), ("response_type", "token"), ("state", "s")])
            #expect(token.status == .found)
            #expect(queryItems(of: token.headers[.location] ?? "")["error"] == "unsupported_response_type")
            #expect(queryItems(of: token.headers[.location] ?? "")["state"] == "s")
            let scope = try await get([("client_id", app.clientId), ("redirect_uri", app.redirectURI), ("response_type", "code"), ("scope", "write")])
            #expect(queryItems(of: scope.headers[.location] ?? "")["error"] == "invalid_scope")

            let denied = try await client.postForm("/oauth/authorize", [
                ("client_id", app.clientId), ("redirect_uri", app.redirectURI), ("response_type", "code"), ("decision", "deny"),
            ])
            #expect(denied.status == .found)
            #expect(queryItems(of: denied.headers[.location] ?? "")["error"] == "access_denied")
            #expect(queryItems(of: denied.headers[.location] ?? "")["code"] == nil)
        }
    }

    @Test("Out-of-band apps get the code on a page and exchange it")
    func outOfBand() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        _ = try await t.user("alice")
        try await t.withClient { client in
            let app = try await client.registerApp(redirectURI: "urn:ietf:wg:oauth:2.0:oob")
            let page = try await client.postForm("/oauth/authorize", [
                ("client_id", app.clientId), ("redirect_uri", app.redirectURI), ("response_type", "code"), ("scope", "read"),
                ("email", "alice@example.test"), ("password", "correct horse battery"),
            ])
            #expect(page.status == .ok)
            #expect(page.headers[.location] == nil)
            let range = try #require(page.text.range(of: #"readonly value="([^"]+)""#, options: .regularExpression))
            let code = String(page.text[range].dropFirst(#"readonly value=""#.count).dropLast())
            let token = try await client.postForm("/oauth/token", [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", app.redirectURI),
                ("client_id", app.clientId), ("client_secret", app.clientSecret),
            ])
            #expect(token.status == .ok)
            #expect(token.json?["scope"] as? String == "read")
        }
    }
}
