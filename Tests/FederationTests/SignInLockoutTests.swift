@testable import Core
import Foundation
import Storage
import Testing
import TestSupport
@testable import FedNode

/// Lockout by strangers, on a real node over HTTP with a real SMTP server on loopback
/// (`AccountMailTests.SMTPSink`): failed sign-ins from many addresses lock the account for
/// everyone but the browsers it signed in from before, and an emailed one-time link lets the
/// person in from a new one.
@Suite("Sign-in lockout by strangers", .serialized, .enabled(if: PythonInterop.available))
struct SignInLockoutTests {
    /// A browser: its cookies, its address (as `X-Forwarded-For`, which the node believes from
    /// loopback, a trusted proxy), redirects not followed so their cookies are seen.
    struct Browser {
        let node: NetworkNode
        let client: CurlHTTPClient
        let address: String
        var cookies: [String: String] = [:]

        init(_ node: NetworkNode, _ client: CurlHTTPClient, from address: String) {
            self.node = node
            self.client = client
            self.address = address
        }

        mutating func get(_ path: String) async throws -> HTTPClientResponse {
            try await send("GET", path, body: nil)
        }

        /// Posts a form with the page's CSRF token.
        mutating func post(_ path: String, _ fields: [(String, String)]) async throws -> HTTPClientResponse {
            let all = fields + [("csrf", cookies[CSRF.cookieName] ?? "")]
            return try await send("POST", path, body: all.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&"))
        }

        /// Opens the login page and signs in with it.
        mutating func signIn(_ email: String, _ password: String) async throws -> HTTPClientResponse {
            _ = try await get("/login")
            return try await post("/login", [("email", email), ("password", password)])
        }

        private mutating func send(_ method: String, _ path: String, body: String?) async throws -> HTTPClientResponse {
            var headers = [("X-Forwarded-For", address)]
            if !cookies.isEmpty { headers.append(("Cookie", cookies.map { "\($0)=\($1)" }.joined(separator: "; "))) }
            if body != nil { headers.append(("Content-Type", "application/x-www-form-urlencoded")) }
            let response = try await client.execute(HTTPClientRequest(method: method, url: "http://\(node.domain)\(path)", headers: headers,
                                                                      body: body.map { Array($0.utf8) }))
            for value in response.headers(named: "Set-Cookie") {
                let parts = (value.split(separator: ";").first ?? "").split(separator: "=", maxSplits: 1).map(String.init)
                guard let name = parts.first else { continue }
                cookies[name] = parts.count == 2 && !parts[1].isEmpty ? parts[1] : nil
            }
            return response
        }
    }

    static func text(_ response: HTTPClientResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test("twelve strangers lock the account; the person's browser still gets in, an emailed link signs in once, the admin sees the failures")
    func lockoutByStrangers() async throws {
        let sink = try AccountMailTests.SMTPSink()
        defer { sink.stop() }
        try await sink.waitUntilListening()
        let a = try NetworkNode(name: "lockout") {
            $0.mail = MailSettings(url: sink.url, from: "fednode@mail.test")
            $0.rateLimits.signInLink = .init(limit: 3, window: 3600)
            // Ten minutes at first, so the lock outlasts the test however slow the machine.
            $0.rateLimits.failedSignIns = SignInBackoff(firstLockout: 600)
        }
        defer { a.remove() }
        try await a.start()
        let client = CurlHTTPClient(configuration: .init(userAgent: "fednode-tests", maxRedirects: 0, allowPrivateAddresses: true))
        defer { client.shutdown() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@mail.test", password: "alice password")
        let ada = try await a.node.accounts.create(username: "ada", email: "ada@mail.test", password: "ada password")
        try a.node.accounts.setRole("admin", of: "ada")

        // Alice signed in at home once, and signed out.
        var home = Browser(a, client, from: "192.0.2.10")
        #expect(try await home.signIn("alice@mail.test", "alice password").status == 303)
        #expect(home.cookies[DeviceTrust.cookieName] != nil)
        #expect(try await home.post("/logout", []).status == 303)

        var statuses: [Int] = []
        for index in 1...12 {
            var stranger = Browser(a, client, from: "198.51.100.\(index)")
            statuses.append(try await stranger.signIn("alice@mail.test", "guess \(index)").status)
        }
        #expect(statuses == Array(repeating: 401, count: 5) + Array(repeating: 429, count: 7))

        // The right password from a new browser and address is refused, with the back-off...
        var travelling = Browser(a, client, from: "203.0.113.9")
        let refused = try await travelling.signIn("alice@mail.test", "alice password")
        #expect(refused.status == 429)
        #expect(Int(refused.header("Retry-After") ?? "").map { (1...600).contains($0) } == true, "the first lock")
        #expect(refused.header("X-RateLimit-Reset") != nil)
        #expect(Self.text(refused).contains("Email me a sign-in link"))
        #expect(travelling.cookies[WebSession.cookieName] == nil)
        // ...and so is an app's password grant.
        let app = AccountMailTests.json(try await AccountMailTests.form(a, "POST", "/api/v1/apps", [
            ("client_name", "test"), ("redirect_uris", "urn:ietf:wg:oauth:2.0:oob"), ("scopes", "read")]))
        let clientId = app["client_id"] as? String ?? "", clientSecret = app["client_secret"] as? String ?? ""
        let grant = try await AccountMailTests.form(a, "POST", "/oauth/token", [
            ("grant_type", "password"), ("username", "alice@mail.test"), ("password", "alice password"),
            ("client_id", clientId), ("client_secret", clientSecret), ("scope", "read")])
        #expect(grant.status == 429 && grant.header("Retry-After") != nil)

        // From her own browser, from yet another address, she gets in: on the web and in the OAuth form.
        var roaming = Browser(a, client, from: "192.0.2.77")
        roaming.cookies = home.cookies
        #expect(try await roaming.signIn("alice@mail.test", "alice password").status == 303)
        #expect(Self.text(try await roaming.get("/home")).contains("Log out"))
        let authorize: [(String, String)] = [("client_id", clientId), ("redirect_uri", "urn:ietf:wg:oauth:2.0:oob"), ("response_type", "code"),
                                             ("scope", "read"), ("email", "alice@mail.test"), ("password", "alice password"), ("decision", "allow")]
        let code = try await roaming.post("/oauth/authorize", authorize)
        #expect(code.status == 200 && Self.text(code).contains("Authorization code"))
        #expect(try await travelling.post("/oauth/authorize", authorize).status == 429)

        // The admin sees who is being guessed at, how often, from where, until when.
        let adminToken = try await a.node.database.write { db in
            try a.node.apiAuth.issueToken(appId: nil, accountId: ada.id, scopes: Scopes("admin:read"), in: db).token
        }
        let shown = AccountMailTests.json(try await AccountMailTests.form(a, "GET", "/api/v1/admin/accounts/\(alice.id)", token: adminToken))
        let failures = try #require(shown["failed_sign_ins"] as? [String: Any])
        #expect(failures["count"] as? Int == 5)
        #expect(failures["last_ip"] as? String == "198.51.100.5")
        #expect(failures["locked_until"] as? String != nil && failures["last_failed_at"] as? String != nil)

        // A link by email, asked from the new browser; the same answer for an unknown address.
        let asked = try await travelling.post("/login/link", [("email", "alice@mail.test")])
        let unknown = try await travelling.post("/login/link", [("email", "nobody@mail.test")])
        #expect(asked.status == 200 && unknown.status == 200)
        #expect(Self.text(asked) == Self.text(unknown), "the answer does not reveal whether the address has an account")
        try await eventually("the sign-in mail arrived") { sink.messages().count == 1 }
        try await Task.sleep(for: .milliseconds(300))
        #expect(sink.messages().count == 1, "no mail for an unknown address")
        let mail = try #require(sink.messages().first)
        #expect(mail.contains("To: alice@mail.test") && mail.contains("Subject: Your sign-in link for"))
        let secret = try #require(AccountMailTests.linkParameter("sign_in_token", in: AccountMailTests.body(of: mail)))

        let button = try await travelling.get("/login/link?sign_in_token=\(secret)")
        #expect(button.status == 200 && Self.text(button).contains("@alice"))
        let used = try await travelling.post("/login/link/use", [("sign_in_token", secret)])
        #expect(used.status == 303 && travelling.cookies[WebSession.cookieName] != nil && travelling.cookies[DeviceTrust.cookieName] != nil)
        #expect(Self.text(try await travelling.get("/home")).contains("Log out"))
        var other = Browser(a, client, from: "203.0.113.30")
        _ = try await other.get("/login")
        #expect(try await other.post("/login/link/use", [("sign_in_token", secret)]).status == 400, "the link works once")
        #expect(other.cookies[WebSession.cookieName] == nil)

        // The browser that used it is trusted now; strangers are still locked out.
        #expect(try await travelling.post("/logout", []).status == 303)
        #expect(try await travelling.signIn("alice@mail.test", "alice password").status == 303)
        var late = Browser(a, client, from: "198.51.100.77")
        #expect(try await late.signIn("alice@mail.test", "alice password").status == 429)

        // Asking for links is limited per address (three an hour here).
        #expect(try await travelling.post("/login/link", [("email", "nobody2@mail.test")]).status == 200)
        #expect(try await travelling.post("/login/link", [("email", "alice@mail.test")]).status == 429)
        await a.stop()
    }
}
