@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// Moderators' notes on reports, over real HTTP: added directly or when resolving, listed,
/// deleted by their author or an admin only.
@Suite("Report notes")
struct ReportNotesTests {
    @Test("notes are added, listed oldest first, added by resolving, and deleted by the author or an admin only")
    func notes() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        let (_, reporterToken) = try await t.user("alice")
        let (spammer, _) = try await t.user("spammer")
        let (moira, moiraToken) = try await t.user("moira", scopes: RegistrationTests.adminScopes)
        let (milo, miloToken) = try await t.user("milo", scopes: RegistrationTests.adminScopes)
        let (ada, adaToken) = try await t.user("ada", scopes: RegistrationTests.adminScopes)
        try t.node.accounts.setRole("moderator", of: moira.username)
        try t.node.accounts.setRole("moderator", of: milo.username)
        try t.node.accounts.setRole("admin", of: ada.username)
        let (_, readOnly) = try await t.user("reader", scopes: "read admin:read")
        try t.node.accounts.setRole("moderator", of: "reader")
        try await t.withLiveClient { client in
            let report = try await client.api(.post, "/api/v1/reports", token: reporterToken, json: ["account_id": String(spammer.id), "comment": "spam"])
            let id = try #require(report.json?["id"] as? String)
            let path = "/api/v1/admin/reports/\(id)/notes"
            let first = try await client.api(.post, path, token: moiraToken, json: ["content": "  Checked their posts: all ads.  "])
            #expect(first.status == .ok)
            #expect(first.json?["content"] as? String == "Checked their posts: all ads.")
            #expect(((first.json?["account"] as? [String: Any])?["username"]) as? String == "moira")
            #expect(try await client.api(.post, path, token: moiraToken, json: ["content": " "]).status == .unprocessableContent)
            #expect(try await client.api(.post, path, token: moiraToken, json: ["content": String(repeating: "x", count: 2_001)]).status == .unprocessableContent)
            #expect(try await client.api(.post, path, token: readOnly, json: ["content": "no"]).status == .forbidden, "admin:write is needed")
            #expect(try await client.api(.post, "/api/v1/admin/reports/999999/notes", token: moiraToken, json: ["content": "x"]).status == .notFound)

            let resolved = try await client.api(.post, "/api/v1/admin/reports/\(id)/resolve", token: miloToken,
                                                form: formEncoded([("action_taken_comment", "Suspended the account.")]))
            #expect(resolved.status == .ok && resolved.json?["action_taken"] as? Bool == true)
            let listed = try await client.api(.get, path, token: readOnly).jsonArray ?? []
            #expect(listed.compactMap { $0["content"] as? String } == ["Checked their posts: all ads.", "Suspended the account."])

            let firstId = try #require(first.json?["id"] as? String)
            #expect(try await client.api(.delete, "\(path)/\(firstId)", token: miloToken).status == .forbidden, "only its author or an admin")
            #expect(try await client.api(.delete, "\(path)/\(firstId)", token: adaToken).status == .ok)
            #expect(try await client.api(.delete, "\(path)/\(firstId)", token: adaToken).status == .notFound)
            #expect((try await client.api(.get, path, token: moiraToken).jsonArray ?? []).count == 1)
        }
    }
}
