@testable import Core
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import FedNode

/// Where the node sends a browser after sign-in (`next`) and after a form (`back`): only ever a
/// path on this node, whatever the request carried (`LocalRedirect`).
@Suite("Redirect targets")
struct RedirectTargetTests {
    /// Targets as a form field carries them, after its own decoding (the TAB of `/%09/evil.example`
    /// in a form body is a real TAB here). Each would leave the node, or be read by some browser
    /// as leaving it.
    static let hostile = [
        "/\t/evil.example", "/\t/evil", "//evil", "/\\evil", "\\/evil", "/\r\n/evil", "/\n/evil", "%2F%2Fevil",
        "/%2F/evil", "/%2f%2fevil", "/%09/evil.example", "/%2509/evil", "/%252F/evil", "/%5Cevil", "/%5cevil",
        "https://evil", "http:/evil", "evil.example", "javascript:alert(1)", "JAVASCRIPT:alert(1)", "", " /home",
        "/\u{3000}/evil", "/\u{00A0}/evil", "/\u{2028}/evil", "/\u{200B}/evil", "/\u{FEFF}/evil", "/\u{85}/evil",
        "/home\u{7F}", "/a b", "/%25252509/evil", "/" + String(repeating: "a", count: 600),
    ]

    /// The hostile targets sent to `POST /login`, which allows 30 sign-ins per address in five
    /// minutes: the TAB one (`/\t/evil`), and one of each other kind.
    static let sentToLogin = ["/\t/evil", "//evil", "/\\evil", "%2F%2Fevil", "/%2F/evil", "https://evil", "/%2509/evil", "/%5Cevil",
                              "javascript:alert(1)", "/\u{3000}/evil", "/\u{200B}/evil", "/\r\n/evil", "evil.example"]

    /// Local targets that stay as they are.
    static let local = ["/", "/explore", "/@alice/123", "/login?next=%2Fhome", "/search?q=caf%C3%A9", "/settings/profile#requests",
                        "/tags/café", "/100%", "/a/b?c=d&e=%zz"]

    @Test("hostile targets are refused and fall back", arguments: hostile)
    func refusesHostile(_ target: String) {
        #expect(!LocalRedirect.isLocal(target))
        #expect(LocalRedirect.target(target) == "/")
        #expect(LocalRedirect.target(target, or: "/@alice") == "/@alice")
    }

    @Test("local paths are kept as they are", arguments: local)
    func keepsLocal(_ target: String) {
        #expect(LocalRedirect.target(target, or: "/fallback") == target)
    }

    @Test("a fallback that is not local itself becomes /")
    func badFallback() {
        #expect(LocalRedirect.target(nil, or: "//evil") == "/")
        #expect(LocalRedirect.target("/\t/evil", or: "https://evil") == "/")
    }

    @Test("percent-decoding is repeated until the text stops changing, and bounded")
    func decoding() {
        #expect(LocalRedirect.percentDecoded("/%2509/x") == "/%09/x")
        #expect(LocalRedirect.percentDecoded("/%zz%4") == "/%zz%4")
        // Encoded more times than the bound: refused, not decoded forever.
        var deep = "/%09/evil"
        for _ in 0..<LocalRedirect.maxDecodingRounds { deep = deep.replacingOccurrences(of: "%", with: "%25") }
        #expect(!LocalRedirect.isLocal(deep))
        #expect(LocalRedirect.isLocal("/%25252541"), "an escape that ends as a plain letter is fine")
    }

    @Test("POST /login with a hostile next signs in and goes home; a local next is followed")
    func loginNext() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        _ = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse battery")
        try await test.withLiveClient { client in
            // The request, byte for byte: `%09` in the body is a TAB once decoded.
            let raw = try await Self.signIn(client, nextField: "next=/%09/evil.example")
            #expect(raw.status == .seeOther)
            #expect(raw.headers[.location] == "/")
            for target in Self.sentToLogin {
                let response = try await Self.signIn(client, nextField: formEncoded([("next", target)]))
                #expect(response.status == .seeOther, "\(target.debugDescription)")
                #expect(response.headers[.location] == "/", "next=\(target.debugDescription)")
            }
            let kept = try await Self.signIn(client, nextField: formEncoded([("next", "/search?q=caf%C3%A9")]))
            #expect(kept.headers[.location] == "/search?q=caf%C3%A9")
            // The form shown for a hostile `next` in the query does not carry it either.
            var jar = WebSessionTests.Jar()
            let page = try await WebSessionTests.get(client, "/login?next=" + formEncoded([("x", "//evil")]).dropFirst(2), jar: &jar)
            #expect(page.status == .ok && page.text.contains("name=\"next\" value=\"/\""))
        }
    }

    @Test("the back field of like, comment and follow forms never leaves the node")
    func backField() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        _ = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse battery")
        let bob = try await test.node.accounts.create(username: "bob", email: "bob@example.com", password: "correct horse battery")
        let post = try await test.node.posts.create(.init(text: "The pier at dusk"), by: bob)
        try await test.withLiveClient { client in
            let jar = try await WebSessionTests.signIn(client, email: "alice@example.com", password: "correct horse battery")
            let csrf = try #require(jar.cookies[CSRF.cookieName])
            let forms = [("/web/statuses/\(post.id)/like", "/", [(String, String)]()),
                         ("/web/statuses/\(post.id)/comment", "/", [("text", "Lovely")]),
                         ("/web/accounts/\(bob.id)/follow", "/@bob", [])]
            for (path, fallback, fields) in forms {
                for target in Self.hostile {
                    let response = try await WebSessionTests.post(client, path, fields + [("csrf", csrf), ("back", target)], jar: jar)
                    #expect(response.status == .seeOther, "\(path) back=\(target.debugDescription)")
                    #expect(response.headers[.location] == fallback, "\(path) back=\(target.debugDescription)")
                }
                let kept = try await WebSessionTests.post(client, path, fields + [("csrf", csrf), ("back", "/@bob/\(post.id)")], jar: jar)
                #expect(kept.headers[.location] == "/@bob/\(post.id)")
            }
            // The likes really happened (the form was served, not refused).
            #expect(try await test.node.database.read { db in try db.likes.count(on: post.id) } == 1)
        }
    }

    /// A fresh browser's sign-in as alice, with `nextField` (already form-encoded) in the body.
    private static func signIn(_ client: any TestClientProtocol, nextField: String) async throws -> TestResponse {
        var jar = WebSessionTests.Jar()
        _ = try await WebSessionTests.get(client, "/login", jar: &jar)
        let csrf = jar.cookies[CSRF.cookieName] ?? ""
        let body = formEncoded([("email", "alice@example.com"), ("password", "correct horse battery"), ("csrf", csrf)]) + "&" + nextField
        var headers = jar.header
        headers[.contentType] = "application/x-www-form-urlencoded"
        return try await client.execute(uri: "/login", method: .post, headers: headers, body: ByteBuffer(string: body))
    }
}
