@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// Conversations: direct posts grouped by thread, unread for recipients, read and removed.
@Suite("Client API: conversations")
struct ConversationsTests {
    @Test("a direct post opens a conversation, unread for the recipient, read for the author")
    func directThread() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        let (_, carolToken) = try await t.user("carol")
        try await t.withClient { client in
            let first = try await StatusFixtures.post(client, token: aliceToken, "@bob dinner at eight?", visibility: "direct")
            _ = try await StatusFixtures.post(client, token: aliceToken, "public hello")
            let bobs = try await client.api(.get, "/api/v1/conversations", token: bobToken).entity([APIConversation].self)
            #expect(bobs.count == 1)
            #expect(bobs.first?.unread == true)
            #expect(bobs.first?.accounts.map(\.id) == [String(alice.id)])
            #expect(bobs.first?.lastStatus?.id == first)
            let alices = try await client.api(.get, "/api/v1/conversations", token: aliceToken).entity([APIConversation].self)
            #expect(alices.first?.unread == false && alices.first?.accounts.map(\.id) == [String(bob.id)])
            #expect(try await client.api(.get, "/api/v1/conversations", token: carolToken).entity([APIConversation].self).isEmpty)

            let reply = try await StatusFixtures.post(client, token: bobToken, "@alice yes!", visibility: "direct", extra: ["in_reply_to_id": first])
            let afterReply = try await client.api(.get, "/api/v1/conversations", token: aliceToken).entity([APIConversation].self)
            #expect(afterReply.count == 1, "the reply stays in the same conversation")
            #expect(afterReply.first?.lastStatus?.id == reply && afterReply.first?.unread == true)

            let id = try #require(afterReply.first?.id)
            let read = try await client.api(.post, "/api/v1/conversations/\(id)/read", token: aliceToken)
            #expect(try read.entity(APIConversation.self).unread == false)
            #expect(try await client.api(.post, "/api/v1/conversations/\(id)/read", token: carolToken).status == .notFound)
            #expect(try await client.api(.get, "/api/v1/conversations", token: aliceToken).entity([APIConversation].self).first?.unread == false)
            #expect(try await client.api(.delete, "/api/v1/conversations/\(id)", token: aliceToken).status == .ok)
            #expect(try await client.api(.get, "/api/v1/conversations", token: aliceToken).entity([APIConversation].self).isEmpty)
            #expect(try await client.api(.get, "/api/v1/conversations").status == .unauthorized)
        }
    }

    @Test("a conversation is marked unread again; the direct timeline lists the direct posts one wrote or is mentioned in")
    func unreadAndDirectTimeline() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        let (_, carolToken) = try await t.user("carol")
        try await t.withClient { client in
            let first = try await StatusFixtures.post(client, token: aliceToken, "@bob dinner at eight?", visibility: "direct")
            let reply = try await StatusFixtures.post(client, token: bobToken, "@alice yes!", visibility: "direct", extra: ["in_reply_to_id": first])
            let other = try await StatusFixtures.post(client, token: carolToken, "@alice a secret", visibility: "direct")
            _ = try await StatusFixtures.post(client, token: aliceToken, "@bob public hello")
            let id = try #require(try await client.api(.get, "/api/v1/conversations", token: bobToken).entity([APIConversation].self).first?.id)
            #expect(try await client.api(.post, "/api/v1/conversations/\(id)/read", token: bobToken).entity(APIConversation.self).unread == false)
            let unread = try await client.api(.post, "/api/v1/conversations/\(id)/unread", token: bobToken)
            #expect(try unread.entity(APIConversation.self).unread == true)
            #expect(try await client.api(.get, "/api/v1/conversations", token: bobToken).entity([APIConversation].self).first?.unread == true)
            #expect(try await client.api(.post, "/api/v1/conversations/\(id)/unread", token: carolToken).status == .notFound)

            let alices = try await client.api(.get, "/api/v1/timelines/direct", token: aliceToken)
            #expect(alices.status == .ok)
            #expect(StatusFixtures.ids(alices) == [other, reply, first])
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/direct", token: bobToken)) == [reply, first])
            let page = try await client.api(.get, "/api/v1/timelines/direct?limit=1", token: aliceToken)
            #expect(StatusFixtures.ids(page) == [other])
            #expect(page.headers[.link]?.contains("max_id=") == true)
            #expect(try await client.api(.get, "/api/v1/timelines/direct").status == .unauthorized)
        }
    }

    @Test("conversations page by their last post with Link")
    func pagination() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        _ = try await t.user("bob")
        _ = try await t.user("carol")
        try await t.withClient { client in
            let toBob = try await StatusFixtures.post(client, token: aliceToken, "@bob hi", visibility: "direct")
            let toCarol = try await StatusFixtures.post(client, token: aliceToken, "@carol hi", visibility: "direct")
            let page = try await client.api(.get, "/api/v1/conversations?limit=1", token: aliceToken)
            #expect(try page.entity([APIConversation].self).map { $0.lastStatus?.id } == [toCarol])
            #expect(page.headers[.link]?.contains("max_id=\(toCarol)") == true)
            let next = try await client.api(.get, "/api/v1/conversations?max_id=\(toCarol)", token: aliceToken)
            #expect(try next.entity([APIConversation].self).map { $0.lastStatus?.id } == [toBob])
        }
    }
}
