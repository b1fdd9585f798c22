@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// Moderation across two real nodes: reports forwarded as `Flag`s, staff-only admin API, domain
/// suspension (purge, no traffic either way), account suspension; and Mastodon.py's admin calls.
@Suite("Moderation across nodes", .serialized)
struct ModerationTests {
    /// A request to `node`'s client API with `token`; the answer's status and JSON.
    static func call(_ node: NetworkNode, _ method: String, _ path: String, token: String?,
                     form: [(String, String)] = []) async throws -> (status: Int, json: Any?) {
        let body = form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
        var headers = [("Content-Type", "application/x-www-form-urlencoded")]
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        let response = try await node.node.httpClient.execute(HTTPClientRequest(
            method: method, url: "http://\(node.domain)\(path)", headers: headers, body: method == "GET" ? nil : Array(body.utf8)))
        return (response.status, try? JSONSerialization.jsonObject(with: Data(response.body)))
    }

    static func token(_ node: NetworkNode, _ account: Account, scopes: String) async throws -> String {
        try await node.node.database.write { db in
            try node.node.apiAuth.issueToken(appId: nil, accountId: account.id, scopes: Scopes(scopes), in: db).token
        }
    }

    @Test("a report made on A reaches B's moderators as a Flag; only staff with admin scopes read and resolve it")
    func forwardedReport() async throws {
        let (a, b) = (try NetworkNode(name: "report-a"), try NetworkNode(name: "report-b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        let moderator = try await b.node.accounts.create(username: "moira", email: "moira@b.test", password: "moira password")
        try b.node.accounts.setRole("moderator", of: "moira")
        try await a.node.interactions.follow(try await a.node.remoteAccounts.resolve(username: "bob", domain: b.domain), by: alice)
        let post = try await b.node.posts.create(.init(text: "buy my pills"), by: bob)
        try await eventually("A has bob's post") { try a.read { try Post.filter(Column("uri") == post.uri).fetchCount($0) } == 1 }
        let (remoteBob, remotePost) = try a.read { db in
            (try Account.filter(Column("uri") == bob.uri).fetchOne(db)!, try Post.filter(Column("uri") == post.uri).fetchOne(db)!)
        }

        let aliceToken = try await Self.token(a, alice, scopes: "read write")
        let made = try await Self.call(a, "POST", "/api/v1/reports", token: aliceToken, form: [
            ("account_id", String(remoteBob.id)), ("status_ids[]", String(remotePost.id)), ("comment", "spam <b>here</b>"),
            ("category", "spam"), ("forward", "true"),
        ])
        #expect(made.status == 200)
        let report = try #require(made.json as? [String: Any])
        #expect(report["forwarded"] as? Bool == true && report["category"] as? String == "spam")
        #expect((report["status_ids"] as? [String]) == [String(remotePost.id)])
        let foreign = try await Self.call(a, "POST", "/api/v1/reports", token: aliceToken, form: [
            ("account_id", String(remoteBob.id)), ("status_ids[]", "12345"),
        ])
        #expect(foreign.status == 422, "posts must be the reported account's")
        #expect(try await Self.call(a, "POST", "/api/v1/reports", token: aliceToken, form: [("account_id", String(alice.id))]).status == 422)
        #expect(try await Self.call(a, "POST", "/api/v1/reports", token: aliceToken, form: [("account_id", String(remoteBob.id)), ("category", "rude")]).status == 422)

        a.node.deliverySignal.notify()
        let modToken = try await Self.token(b, moderator, scopes: "read admin:read admin:write")
        try await eventually("B's moderators see the forwarded report") {
            (try await Self.call(b, "GET", "/api/v1/admin/reports", token: modToken).json as? [Any])?.count == 1
        }
        let listed = try await Self.call(b, "GET", "/api/v1/admin/reports", token: modToken).json as? [[String: Any]]
        let flagged = try #require(listed?.first)
        #expect((flagged["target_account"] as? [String: Any])?["username"] as? String == "bob")
        #expect((flagged["statuses"] as? [[String: Any]])?.compactMap { $0["uri"] as? String } == [post.uri])
        #expect(flagged["comment"] as? String == "spam <b>here</b>", "the comment is plain text, kept as written")
        #expect(flagged["forwarded"] as? Bool == true)
        #expect(((flagged["account"] as? [String: Any])?["account"] as? [String: Any])?["url"] != nil)
        let id = try #require(flagged["id"] as? String)

        let bobToken = try await Self.token(b, bob, scopes: "read admin:read admin:write")
        #expect(try await Self.call(b, "GET", "/api/v1/admin/reports", token: bobToken).status == 403, "users are not staff")
        let readOnly = try await Self.token(b, moderator, scopes: "read")
        #expect(try await Self.call(b, "GET", "/api/v1/admin/reports", token: readOnly).status == 403, "the admin scope is needed")
        #expect(try await Self.call(b, "GET", "/api/v1/admin/domain_blocks", token: modToken).status == 403, "domain blocks are for admins")
        #expect(try await Self.call(b, "GET", "/api/v1/admin/reports/999999", token: modToken).status == 404)

        let assigned = try await Self.call(b, "POST", "/api/v1/admin/reports/\(id)/assign_to_self", token: modToken)
        #expect(((assigned.json as? [String: Any])?["assigned_account"] as? [String: Any])?["username"] as? String == "moira")
        let resolved = try await Self.call(b, "POST", "/api/v1/admin/reports/\(id)/resolve", token: modToken)
        #expect((resolved.json as? [String: Any])?["action_taken"] as? Bool == true)
        #expect((try await Self.call(b, "GET", "/api/v1/admin/reports", token: modToken).json as? [Any])?.isEmpty == true)
        #expect((try await Self.call(b, "GET", "/api/v1/admin/reports?resolved=true", token: modToken).json as? [Any])?.count == 1)
        let reopened = try await Self.call(b, "POST", "/api/v1/admin/reports/\(id)/reopen", token: modToken)
        #expect((reopened.json as? [String: Any])?["action_taken"] as? Bool == false)
        for node in [a, b] { await node.stop() }
    }

    @Test("suspending B's domain on A purges B's posts and follows and stops traffic both ways; a suspended local account is gone")
    func domainAndAccountSuspension() async throws {
        let (a, b) = (try NetworkNode(name: "suspend-a"), try NetworkNode(name: "suspend-b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let admin = try await a.node.accounts.create(username: "ada", email: "ada@a.test", password: "ada password")
        #expect(try a.node.accounts.promoteFirstAdmin(admin.id) == "owner")
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        try await a.node.interactions.follow(try await a.node.remoteAccounts.resolve(username: "bob", domain: b.domain), by: alice)
        try await b.node.interactions.follow(try await b.node.remoteAccounts.resolve(username: "alice", domain: a.domain), by: bob)
        let before = try await b.node.posts.create(.init(text: "before the block"), by: bob)
        // A's Accept of alice's follow starts a read of bob's outbox: wait for it too, or it could
        // store `before` again after the suspension purged it.
        try await eventually("A has bob's post and read his outbox, both follows accepted") {
            let outboxRead = await a.node.backgroundJobs.completed >= 1
            return try outboxRead && a.read { try Post.filter(Column("uri") == before.uri).fetchCount($0) } == 1
                && b.read { try Follow.filter(Column("state") == "accepted").fetchCount($0) } == 2
                && a.read { try Follow.filter(Column("account_id") == alice.id && Column("state") == "accepted").fetchCount($0) } == 1
        }

        let adminToken = try await Self.token(a, admin, scopes: "read write admin:read admin:write")
        let created = try await Self.call(a, "POST", "/api/v1/admin/domain_blocks", token: adminToken, form: [
            ("domain", b.domain), ("severity", "suspend"), ("public_comment", "spam"), ("obfuscate", "true"),
        ])
        #expect(created.status == 200)
        #expect((created.json as? [String: Any])?["severity"] as? String == "suspend")
        #expect(try a.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM posts p JOIN accounts a ON a.id = p.account_id WHERE a.domain = ?", arguments: [b.domain])
        } == 0)
        #expect(try a.read { try Follow.fetchCount($0) } == 0, "follows with B's accounts are gone")
        let publicList = try await Self.call(a, "GET", "/api/v1/instance/domain_blocks", token: nil)
        let entry = try #require((publicList.json as? [[String: Any]])?.first)
        #expect(entry["domain"] as? String != b.domain && (entry["domain"] as? String)?.contains("*") == true, "obfuscated")
        #expect(entry["digest"] as? String == ModerationRenderer.digest(b.domain) && entry["comment"] as? String == "spam")
        #expect(try await Self.call(a, "POST", "/api/v1/admin/domain_blocks", token: adminToken, form: [("domain", b.domain)]).status == 422)
        let blockId = try #require((created.json as? [String: Any])?["id"] as? String)
        let silenced = try await Self.call(a, "PUT", "/api/v1/admin/domain_blocks/\(blockId)", token: adminToken, form: [("severity", "silence")])
        #expect(silenced.status == 200 && (silenced.json as? [String: Any])?["severity"] as? String == "silence", "\(silenced)")
        #expect(try a.read { try DomainBlock.fetchCount($0) } == 0, "a silence is not enforced as a suspension")
        #expect(try await Self.call(a, "PUT", "/api/v1/admin/domain_blocks/\(blockId)", token: adminToken, form: [("severity", "suspend")]).status == 200)

        _ = try await a.node.posts.create(.init(text: "nothing goes to B"), by: alice)
        #expect(try a.read { try Delivery.filter(Column("domain") == b.domain).fetchCount($0) } == 0, "no delivery to a suspended domain")
        let after = try await b.node.posts.create(.init(text: "after the block"), by: bob)
        b.node.deliverySignal.notify()
        try await Task.sleep(for: .seconds(2))
        #expect(try a.read { try Post.filter(Column("uri") == after.uri).fetchCount($0) } == 0, "nothing comes in from B")

        // A local account: suspended, its token and actor stop working; unsuspended, they work again.
        let aliceToken = try await Self.token(a, alice, scopes: "read write")
        let suspended = try await Self.call(a, "POST", "/api/v1/admin/accounts/\(alice.id)/action", token: adminToken, form: [("type", "suspend")])
        #expect(suspended.status == 200)
        #expect(try await Self.call(a, "GET", "/api/v1/accounts/verify_credentials", token: aliceToken).status == 403)
        let actor = try await a.node.httpClient.execute(HTTPClientRequest(url: alice.uri, headers: [("Accept", "application/activity+json")]))
        #expect(actor.status == 410)
        #expect(try await Self.call(a, "POST", "/api/v1/admin/accounts/\(admin.id)/action", token: adminToken, form: [("type", "suspend")]).status == 403,
                "nobody acts on themselves")
        let shown = try await Self.call(a, "POST", "/api/v1/admin/accounts/\(alice.id)/unsuspend", token: adminToken)
        #expect((shown.json as? [String: Any])?["suspended"] as? Bool == false)
        #expect(try await Self.call(a, "GET", "/api/v1/accounts/verify_credentials", token: aliceToken).status == 200)
        for node in [a, b] { await node.stop() }
    }

    @Test("Mastodon.py's admin calls: reports, accounts, moderation and domain blocks", .enabled(if: PythonInterop.available))
    func mastodonPyAdmin() async throws {
        let (a, b) = (try NetworkNode(name: "admin-py-a"), try NetworkNode(name: "admin-py-b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        _ = try await a.node.accounts.create(username: "ada", email: "ada@a.test", password: "ada secret password")
        try a.node.accounts.setRole("admin", of: "ada")
        let (status, output) = try await PythonInterop.run("mastodon_admin_test.py", [
            "--node-a", "http://\(a.domain)", "--node-b", "http://\(b.domain)",
            "--admin-email", "ada@a.test", "--admin-password", "ada secret password",
        ], within: 180)
        #expect(status == 0 && output.contains("ALL OK"), "Mastodon.py admin run failed:\n\(output)")
        for node in [a, b] { await node.stop() }
    }
}
