@testable import Core
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// The web app's sessions, CSRF protection, security headers and assets, through the router.
@Suite("Web sessions and forms")
struct WebSessionTests {
    /// A browser's cookie jar, enough for these tests.
    struct Jar {
        var cookies: [String: String] = [:]
        var header: HTTPFields { cookies.isEmpty ? [:] : [.cookie: cookies.map { "\($0)=\($1)" }.joined(separator: "; ")] }

        mutating func take(_ response: TestResponse) {
            for value in response.headers[values: .setCookie] {
                guard let pair = value.split(separator: ";").first else { continue }
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2, !parts[1].isEmpty { cookies[parts[0]] = parts[1] } else { cookies[parts[0]] = nil }
            }
        }
    }

    static func post(_ client: any TestClientProtocol, _ path: String, _ fields: [(String, String)], jar: Jar) async throws -> TestResponse {
        var headers = jar.header
        headers[.contentType] = "application/x-www-form-urlencoded"
        return try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: formEncoded(fields)))
    }

    static func get(_ client: any TestClientProtocol, _ path: String, jar: inout Jar) async throws -> TestResponse {
        let response = try await client.execute(uri: path, method: .get, headers: jar.header)
        jar.take(response)
        return response
    }

    /// A browser that opened the sign-in page and signed in as `email`.
    static func signIn(_ client: any TestClientProtocol, email: String, password: String) async throws -> Jar {
        var jar = Jar()
        _ = try await get(client, "/login", jar: &jar)
        jar.take(try await post(client, "/login", [("email", email), ("password", password), ("csrf", jar.cookies[CSRF.cookieName] ?? "")], jar: jar))
        return jar
    }

    @Test("logging in needs the page's CSRF token, sets an HttpOnly SameSite=Lax session cookie, rotates it and logs out")
    func loginLogout() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        _ = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse battery")
        try await test.withClient { client in
            var jar = Jar()
            let form = try await Self.get(client, "/login", jar: &jar)
            #expect(form.status == .ok)
            let csrf = try #require(jar.cookies[CSRF.cookieName])
            #expect(form.text.contains("value=\"\(csrf)\""))
            let policy = try #require(form.headers[.contentSecurityPolicy])
            #expect(!policy.contains("unsafe-inline") && policy.contains("script-src 'self'"))

            let forged = try await Self.post(client, "/login", [("email", "alice@example.com"), ("password", "correct horse battery"), ("csrf", "forged")], jar: jar)
            #expect(forged.status == .forbidden)
            #expect(forged.headers[.contentType]?.hasPrefix("text/html") == true && forged.text.contains("Go home"))
            #expect(forged.headers[values: .setCookie].allSatisfy { !$0.hasPrefix(WebSession.cookieName) })

            let wrong = try await Self.post(client, "/login", [("email", "alice@example.com"), ("password", "nope"), ("csrf", csrf)], jar: jar)
            #expect(wrong.status == .unauthorized)
            #expect(wrong.text.contains("do not match"))

            let login = try await Self.post(client, "/login", [("email", "alice@example.com"), ("password", "correct horse battery"), ("csrf", csrf), ("next", "/explore")], jar: jar)
            #expect(login.status == .seeOther)
            #expect(login.headers[.location] == "/explore")
            let cookie = try #require(login.headers[values: .setCookie].first { $0.hasPrefix(WebSession.cookieName + "=") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && !cookie.contains("Secure") && !cookie.contains("Max-Age"))
            jar.take(login)
            let first = try #require(jar.cookies[WebSession.cookieName])
            #expect(jar.cookies[CSRF.cookieName] != csrf, "a new CSRF token comes with the session")

            let home = try await Self.get(client, "/home", jar: &jar)
            #expect(home.status == .ok && home.text.contains("Log out"))

            // Logging in again (remember me) replaces the session: the old token stops working.
            let again = try await Self.post(client, "/login", [("email", "alice@example.com"), ("password", "correct horse battery"),
                                                               ("csrf", jar.cookies[CSRF.cookieName] ?? ""), ("remember", "true")], jar: jar)
            #expect(again.headers[values: .setCookie].contains { $0.hasPrefix(WebSession.cookieName) && $0.contains("Max-Age=2592000") })
            jar.take(again)
            var stale = Jar(cookies: [WebSession.cookieName: first])
            #expect(try await Self.get(client, "/home", jar: &stale).status == .seeOther)

            let out = try await Self.post(client, "/logout", [("csrf", jar.cookies[CSRF.cookieName] ?? "")], jar: jar)
            #expect(out.status == .seeOther)
            let session = try #require(jar.cookies[WebSession.cookieName])
            jar.take(out)
            var revoked = Jar(cookies: [WebSession.cookieName: session])
            let after = try await Self.get(client, "/home", jar: &revoked)
            #expect(after.status == .seeOther && after.headers[.location]?.hasPrefix("/login") == true)
        }
    }

    @Test("the session is an OAuth token the client API accepts too, with the web scopes")
    func sessionIsToken() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        _ = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse battery")
        try await test.withClient { client in
            var jar = Jar()
            _ = try await Self.get(client, "/login", jar: &jar)
            let login = try await Self.post(client, "/login", [("email", "alice@example.com"), ("password", "correct horse battery"),
                                                               ("csrf", jar.cookies[CSRF.cookieName] ?? "")], jar: jar)
            jar.take(login)
            let token = try #require(jar.cookies[WebSession.cookieName])
            let me = try await client.execute(uri: "/api/v1/accounts/verify_credentials", method: .get, headers: [.authorization: "Bearer \(token)"])
            #expect(me.status == .ok && me.json?["username"] as? String == "alice")
        }
    }

    @Test("assets are fingerprinted and immutable; old fingerprints are 404")
    func assets() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        try await test.withClient { client in
            for asset in [WebAssets.stylesheet, WebAssets.script] {
                #expect(!asset.data.isEmpty, "\(asset.path) is bundled")
                let response = try await client.execute(uri: asset.path, method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl]?.contains("immutable") == true)
                #expect(Data(buffer: response.body) == asset.data)
            }
            #expect(try await client.execute(uri: "/assets/app-000000000000.css", method: .get).status == .notFound)
            let landing = try await client.execute(uri: "/", method: .get)
            #expect(landing.text.contains(WebAssets.stylesheet.path) && landing.text.contains(WebAssets.script.path))
        }
    }

    @Test("sign-up shows the rules, refuses bad input with a 422 page and signs the person in")
    func signUp() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        try await test.withClient { client in
            var jar = Jar()
            let form = try await Self.get(client, "/signup", jar: &jar)
            #expect(form.status == .ok && form.text.contains("I agree"))
            let csrf = jar.cookies[CSRF.cookieName] ?? ""
            let bad = try await Self.post(client, "/signup", [("username", "no spaces"), ("email", "x"), ("password", "short"), ("csrf", csrf)], jar: jar)
            #expect(bad.status == .unprocessableContent)
            #expect(bad.text.contains("role=\"alert\""))
            let good = try await Self.post(client, "/signup", [("username", "newbie"), ("email", "newbie@example.com"), ("password", "long enough password"),
                                                              ("agreement", "true"), ("csrf", csrf)], jar: jar)
            #expect(good.status == .seeOther)
            #expect(good.headers[values: .setCookie].contains { $0.hasPrefix(WebSession.cookieName) })
        }
        #expect(try await test.node.database.read { try $0.accounts.findLocal(username: "newbie") } != nil)
    }

    @Test("web error pages are friendly HTML, never JSON or 500")
    func friendlyErrors() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        _ = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse battery", displayName: "Alice <script>")
        try await test.withClient { client in
            for path in ["/@nobody", "/@alice/123", "/@alice/abc", "/@a@b@c", "/web/accounts/99/followers", "/tags/" + String(repeating: "x", count: 150),
                         "/no/such/page", "/settings/nothing"] {
                let response = try await client.execute(uri: path, method: .get, headers: [.accept: "text/html"])
                #expect(response.status == .notFound, "\(path)")
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true && response.text.contains("Go home"), "\(path)")
            }
            // Apps and servers keep the JSON answer for an address nothing answers.
            for (path, accept) in [("/no/such/page", "application/json"), ("/api/v1/nothing", "text/html"), ("/no/such/page", "*/*")] {
                let response = try await client.execute(uri: path, method: .get, headers: [.accept: accept])
                #expect(response.status == .notFound && response.headers[.contentType]?.hasPrefix("application/json") == true, "\(path) \(accept)")
            }
            let profile = try await client.execute(uri: "/@alice", method: .get, headers: [.accept: "text/html"])
            #expect(profile.text.contains("Alice &lt;script&gt;") && !profile.text.contains("Alice <script>"))
            #expect(profile.text.contains("rel=\"alternate\" type=\"application/activity+json\""))
            #expect(profile.text.contains("property=\"og:title\""))
        }
    }

    @Test("changing the password needs the current one, signs out every other session and keeps this browser in")
    func changePassword() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        _ = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse battery")
        try await test.withClient { client in
            func login(_ password: String) async throws -> Jar { try await Self.signIn(client, email: "alice@example.com", password: password) }
            var other = try await login("correct horse battery")
            var jar = try await login("correct horse battery")
            let settings = try await Self.get(client, "/settings/account", jar: &jar)
            #expect(settings.status == .ok && settings.text.contains("this browser"))
            let csrf = jar.cookies[CSRF.cookieName] ?? ""
            let wrong = try await Self.post(client, "/settings/password", [("current", "nope"), ("password", "a new long password"), ("csrf", csrf)], jar: jar)
            #expect(wrong.status == .forbidden && wrong.text.contains("not right"))
            let changed = try await Self.post(client, "/settings/password", [("current", "correct horse battery"), ("password", "a new long password"), ("csrf", csrf)], jar: jar)
            #expect(changed.status == .seeOther)
            jar.take(changed)
            #expect(try await Self.get(client, "/home", jar: &jar).status == .ok, "this browser stays signed in")
            #expect(try await Self.get(client, "/home", jar: &other).status == .seeOther, "the other session is signed out")
            var fresh = try await login("a new long password")
            #expect(try await Self.get(client, "/home", jar: &fresh).status == .ok)
        }
    }

    @Test("every template in the bundle parses (a broken one would silently be missing)")
    func templatesParse() {
        let names = ["layout", "card", "grid", "person", "landing", "login", "signup", "message", "error", "home", "explore", "tag",
                     "post", "edit_post", "new", "profile", "people", "search", "notifications", "settings_profile",
                     "settings_account", "remote_follow", "report"]
        for name in names {
            #expect(WebTemplates.library.getTemplate(named: name) != nil, "template \(name)")
        }
    }
}
