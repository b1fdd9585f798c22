@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// `/authorize_interaction`, where WebFinger's subscribe template sends people from other
/// servers: a handle or a post URL of another node is shown, and signing in follows or likes it.
@Suite("Remote interaction page", .serialized)
struct AuthorizeInteractionTests {
    static func page(_ node: NetworkNode, _ method: String, _ path: String, form: [(String, String)] = []) async throws -> (status: Int, text: String) {
        let body = form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
        let response = try await node.node.httpClient.execute(HTTPClientRequest(
            method: method, url: "http://\(node.domain)\(path)", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: method == "GET" ? nil : Array(body.utf8)))
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    @Test("alice on A follows bob@B and likes his post from the page WebFinger's subscribe template names")
    func followAndLike() async throws {
        let (a, b) = (try NetworkNode(name: "interact-a"), try NetworkNode(name: "interact-b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password", displayName: "Bob <b>B</b>")
        let post = try await b.node.posts.create(.init(text: "A photo of the harbour"), by: bob)

        let handle = "acct:bob@\(b.domain)"
        let query = "/authorize_interaction?uri=\(handle.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        let shown = try await Self.page(a, "GET", query)
        #expect(shown.status == 200 && shown.text.contains("@bob@\(b.domain)") && shown.text.contains(">Follow</button>"))
        #expect(shown.text.contains("Bob &lt;b&gt;B&lt;/b&gt;"), "names are escaped")
        let wrong = try await Self.page(a, "POST", "/authorize_interaction", form: [("uri", handle), ("email", "alice@a.test"), ("password", "nope")])
        #expect(wrong.status == 401 && wrong.text.contains("Invalid email or password."))
        let followed = try await Self.page(a, "POST", "/authorize_interaction",
                                           form: [("uri", handle), ("email", "alice@a.test"), ("password", "alice password")])
        #expect(followed.status == 200 && followed.text.contains("follow @bob@\(b.domain)"))
        try await eventually("bob has alice as a follower") {
            try b.read { try Follow.filter(Column("target_account_id") == bob.id).filter(Column("state") == "accepted").fetchCount($0) } == 1
        }

        let liked = try await Self.page(a, "POST", "/authorize_interaction",
                                        form: [("uri", post.uri), ("email", "alice@a.test"), ("password", "alice password")])
        #expect(liked.status == 200 && liked.text.contains("You liked the post."))
        try await eventually("B counts alice's like") { try b.read { try Like.filter(Column("post_id") == post.id).fetchCount($0) } == 1 }
        #expect(try a.read { try Like.filter(Column("account_id") == alice.id).fetchCount($0) } == 1)

        let missing = try await Self.page(a, "GET", "/authorize_interaction?uri=acct%3Anobody%40\(b.domain)")
        #expect(missing.status == 404)
        #expect(try await Self.page(a, "GET", "/authorize_interaction").status == 404)
        let template = try await Self.page(a, "GET", "/.well-known/webfinger?resource=acct:alice@\(a.domain)")
        #expect(template.text.contains("/authorize_interaction?uri={uri}"))
        for node in [a, b] { await node.stop() }
    }
}
