@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Signatures
import Storage
import Testing
@testable import FedNode

/// verify_credentials, update_credentials, an account, lookup, an account's posts, followers
/// and following.
@Suite("Client API: accounts")
struct AccountsTests {
    // MARK: verify_credentials

    @Test("verify_credentials answers the caller with source, for read:accounts or profile tokens")
    func verifyCredentials() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, token) = try await t.user("alice")
        let (_, profileToken) = try await t.user("bob", scopes: "profile")
        let (_, writeToken) = try await t.user("carol", scopes: "write")
        try await t.withClient { client in
            let r = try await client.api(.get, "/api/v1/accounts/verify_credentials", token: token)
            #expect(r.status == .ok)
            let account = try r.entity(APIAccount.self)
            #expect(account.id == String(alice.id))
            #expect(account.username == "alice")
            #expect(account.source?.followRequestsCount == 0)
            #expect(account.avatar.hasPrefix(t.node.urls.base))
            let viaProfile = try await client.api(.get, "/api/v1/accounts/verify_credentials", token: profileToken)
            #expect(try viaProfile.entity(APIAccount.self).username == "bob")
            #expect(try await client.api(.get, "/api/v1/accounts/verify_credentials").status == .unauthorized)
            #expect(try await client.api(.get, "/api/v1/accounts/verify_credentials", token: "not-a-token").status == .unauthorized)
            let forbidden = try await client.api(.get, "/api/v1/accounts/verify_credentials", token: writeToken)
            #expect(forbidden.status == .forbidden)
            #expect(forbidden.json?["error"] as? String == "This action is outside the authorized scopes")
        }
    }

    // MARK: update_credentials

    @Test("update_credentials saves name, bio, links, flags and names, and shows them in source")
    func updateProfile() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, token) = try await t.user("alice")
        try await t.withClient { client in
            let r = try await client.api(.patch, "/api/v1/accounts/update_credentials", token: token, json: [
                "display_name": "Alice Liddell", "note": "Photos of <rabbits>\n\nMore at https://alice.example #film",
                "locked": true, "bot": true, "discoverable": false, "first_name": "Alice", "last_name": "Liddell",
                "fields_attributes": [["name": "Site", "value": "https://alice.example"], ["name": "Camera", "value": "Leica M6"],
                                      ["name": "", "value": ""]],
            ])
            #expect(r.status == .ok)
            let account = try r.entity(APIAccount.self)
            #expect(account.displayName == "Alice Liddell")
            #expect(account.note.hasPrefix("<p>Photos of &lt;rabbits&gt;</p><p>More at <a href=\"https://alice.example\""))
            #expect(account.note.contains("#<span>film</span>"))
            #expect(account.source?.note == "Photos of <rabbits>\n\nMore at https://alice.example #film")
            #expect(account.locked && account.bot && !account.discoverable)
            #expect(account.firstName == "Alice" && account.lastName == "Liddell")
            #expect(account.source?.firstName == "Alice" && account.source?.lastName == "Liddell")
            #expect(account.fields.map(\.name) == ["Site", "Camera"])
            #expect(account.fields[0].value.hasPrefix("<a href=\"https://alice.example\""))
            #expect(account.fields[1].value == "Leica M6")
            #expect(account.source?.fields.map(\.value) == ["https://alice.example", "Leica M6"])

            // Only what is sent changes; a form-encoded POST works as well.
            let form = try await client.api(.post, "/api/v1/accounts/update_credentials", token: token, form: "display_name=Alice&locked=false")
            let second = try form.entity(APIAccount.self)
            #expect(second.displayName == "Alice" && !second.locked && second.bot)
            #expect(second.source?.note == "Photos of <rabbits>\n\nMore at https://alice.example #film")
        }
        let stored = try await t.node.database.readSQL { try Account.fetchOne($0, key: alice.id) }
        #expect(stored?.actorType == "Service")
        #expect(stored?.noteSource.hasPrefix("Photos of") == true)
    }

    @Test("avatar and header uploads are stored by content hash and served under /media/")
    func uploadImages() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, token) = try await t.user("alice")
        let png = try RealImages.png(width: 640, height: 480)
        let jpeg = try RealImages.jpeg(width: 2000, height: 900)
        var form = MultipartBody()
        form.field("display_name", "Alice")
        form.file("avatar", filename: "me.gif", contentType: "image/gif", bytes: png)
        form.file("header", filename: "cover", contentType: "application/octet-stream", bytes: jpeg)
        let (body, contentType) = form.finished()
        let account = try await t.withClient { client in
            let r = try await client.execute(uri: "/api/v1/accounts/update_credentials", method: .patch,
                                             headers: [.authorization: "Bearer \(token)", .contentType: contentType], body: body)
            #expect(r.status == .ok)
            return try r.entity(APIAccount.self)
        }
        let stored = try await t.node.database.readSQL { try Account.fetchOne($0, key: alice.id) }
        let avatarPath = try #require(stored?.avatarUrl)
        let headerPath = try #require(stored?.headerUrl)
        #expect(account.avatar == "\(t.node.urls.base)/media/\(avatarPath)")
        #expect(account.avatarStatic == account.avatar)
        #expect(account.header == "\(t.node.urls.base)/media/\(headerPath)")
        // Processed through the pipeline: 400×400 avatar, 1500×500 cover, stored by content hash.
        for (path, width, height) in [(avatarPath, 400, 400), (headerPath, 1500, 500)] {
            let data = try #require(FileManager.default.contents(atPath: "\(t.dataDirectory)/media/\(path)"))
            #expect(path.contains(sha256Hex(data)))
            let image = try RealImages.decode(data)
            #expect(image.width == width && image.height == height, "\(path)")
        }
        // The actor document carries both images as absolute URLs.
        let person = AccountToAS.person(try #require(stored), urls: t.node.urls)
        #expect(person.icon?.url == account.avatar)
        #expect(person.image?.url == account.header)

        // DELETE /api/v1/profile/avatar and /header bring the defaults back, and the actor loses them.
        let (_, readOnly) = try await t.user("bob", scopes: "read")
        try await t.withClient { client in
            #expect(try await client.api(.delete, "/api/v1/profile/avatar", token: readOnly).status == .forbidden)
            let noAvatar = try await client.api(.delete, "/api/v1/profile/avatar", token: token)
            #expect(noAvatar.status == .ok)
            let shown = try noAvatar.entity(APIAccount.self)
            #expect(shown.avatar == "\(t.node.urls.base)/static/avatar.png" && shown.header == account.header)
            #expect(shown.source != nil)
            let noHeader = try await client.api(.delete, "/api/v1/profile/header", token: token).entity(APIAccount.self)
            #expect(noHeader.header == "\(t.node.urls.base)/static/header.png")
            #expect(try await client.api(.delete, "/api/v1/profile/header", token: token).status == .ok)
        }
        let cleared = try #require(try await t.node.database.readSQL { try Account.fetchOne($0, key: alice.id) })
        #expect(cleared.avatarUrl == nil && cleared.headerUrl == nil)
        let plain = AccountToAS.person(cleared, urls: t.node.urls)
        #expect(plain.icon == nil && plain.image == nil)
    }

    @Test("update_credentials refuses invalid input with 422 and changes nothing",
          arguments: [
            ("display_name", "0123456789012345678901234567890", "Display name is too long"),
            ("note", String(repeating: "x", count: 501), "Note is too long"),
          ])
    func invalidText(field: String, value: String, message: String) async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, token) = try await t.user("alice")
        try await t.withClient { client in
            let r = try await client.api(.patch, "/api/v1/accounts/update_credentials", token: token, json: [field: value, "locked": true])
            #expect(r.status == .unprocessableContent)
            #expect((r.json?["error"] as? String)?.contains(message) == true)
        }
        let stored = try await t.node.database.readSQL { try Account.fetchOne($0, key: alice.id) }
        #expect(stored?.locked == false)
    }

    @Test("update_credentials refuses more than four links, non-images and oversized images")
    func invalidFieldsAndImages() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let (_, readOnly) = try await t.user("bob", scopes: "read")
        try await t.withClient { client in
            let fields = (0..<5).map { ["name": "n\($0)", "value": "v\($0)"] }
            let tooMany = try await client.api(.patch, "/api/v1/accounts/update_credentials", token: token, json: ["fields_attributes": fields])
            #expect(tooMany.status == .unprocessableContent)
            for bytes in [Data("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8),
                          Data([0xFF, 0xD8, 0xFF]) + Data(count: UploadStore.maxBytes)] {
                var form = MultipartBody()
                form.file("avatar", filename: "a.jpg", contentType: "image/jpeg", bytes: bytes)
                let (body, contentType) = form.finished()
                let r = try await client.execute(uri: "/api/v1/accounts/update_credentials", method: .patch,
                                                 headers: [.authorization: "Bearer \(token)", .contentType: contentType], body: body)
                #expect(r.status == .unprocessableContent)
            }
            #expect(try await client.api(.patch, "/api/v1/accounts/update_credentials", json: ["display_name": "x"]).status == .unauthorized)
            #expect(try await client.api(.patch, "/api/v1/accounts/update_credentials", token: readOnly, json: ["display_name": "x"]).status == .forbidden)
        }
        let stored = (try? FileManager.default.contentsOfDirectory(atPath: "\(t.dataDirectory)/media/profile")) ?? []
        #expect(stored.isEmpty, "nothing refused is kept")
    }

    // MARK: An account

    @Test("an account by id shows counts that follow follows and posts; unknown and deleted ids are 404")
    func showAccount() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        let (_, statusesOnly) = try await t.user("carol", scopes: "read:statuses")
        _ = try await t.node.posts.create(.init(text: "First light"), by: alice)
        try await t.withClient { client in
            #expect(try await client.api(.post, "/api/v1/accounts/\(alice.id)/follow", token: bobToken).status == .ok)
            let r = try await client.api(.get, "/api/v1/accounts/\(alice.id)")
            #expect(r.status == .ok)
            let account = try r.entity(APIAccount.self)
            #expect(account.acct == "alice")
            #expect(account.followersCount == 1 && account.followingCount == 0 && account.statusesCount == 1)
            #expect(account.source == nil)
            #expect(account.lastStatusAt != nil)
            let follower = try await client.api(.get, "/api/v1/accounts/\(bob.id)", token: aliceToken).entity(APIAccount.self)
            #expect(follower.followingCount == 1 && follower.followersCount == 0 && follower.statusesCount == 0)
            #expect(try await client.api(.get, "/api/v1/accounts/\(alice.id)", token: statusesOnly).status == .forbidden)
            #expect(try await client.api(.get, "/api/v1/accounts/123456789").status == .notFound)
            #expect(try await client.api(.get, "/api/v1/accounts/alice").status == .notFound)
            try t.node.accounts.delete(username: "bob")
            let deleted = try await client.api(.get, "/api/v1/accounts/\(bob.id)")
            #expect(deleted.status == .notFound)
            #expect(deleted.json?["error"] as? String == "Record not found")
            #expect(try await client.api(.get, "/api/v1/accounts/\(alice.id)").entity(APIAccount.self).followersCount == 0)
        }
    }

    @Test("GET /api/v1/accounts?id[]= gives the known accounts of those asked, in their order; more than 40 ids are refused")
    func index() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, token) = try await t.user("alice")
        let (bob, _) = try await t.user("bob")
        let remote = try await Self.remoteAccount("carol", domain: "remote.example", in: t)
        try await t.withClient { client async throws in
            let asked = "id[]=\(remote.id)&id[]=12345&id[]=\(alice.id)&id[]=x&id[]=\(bob.id)&id[]=\(remote.id)"
            let listed = try await client.api(.get, "/api/v1/accounts?\(asked)", token: token)
            #expect(listed.status == .ok)
            #expect(try listed.entity([APIAccount].self).map(\.acct) == ["carol@remote.example", "alice", "bob"])
            let anonymous = try await client.api(.get, "/api/v1/accounts?id[]=\(bob.id)")
            #expect(try anonymous.entity([APIAccount].self).map(\.username) == ["bob"])
            let many = (1...41).map { "id[]=\($0)" }.joined(separator: "&")
            #expect(try await client.api(.get, "/api/v1/accounts?\(many)", token: token).status == .unprocessableContent)
        }
    }

    @Test("lookup finds local names, our own domain and known remote handles only")
    func lookup() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, _) = try await t.user("alice")
        let remote = try await Self.remoteAccount("dana", domain: "photos.example", in: t)
        try await t.withClient { client in
            for acct in ["alice", "Alice", "@alice", "alice@social.test"] {
                let r = try await client.api(.get, "/api/v1/accounts/lookup?acct=\(acct)")
                #expect(r.status == .ok, "\(acct)")
                #expect(try r.entity(APIAccount.self).id == String(alice.id))
            }
            let found = try await client.api(.get, "/api/v1/accounts/lookup?acct=dana@photos.example").entity(APIAccount.self)
            #expect(found.id == String(remote.id) && found.acct == "dana@photos.example")
            for acct in ["nobody", "dana@elsewhere.example", "alice@photos.example", ""] {
                #expect(try await client.api(.get, "/api/v1/accounts/lookup?acct=\(acct)").status == .notFound, "\(acct)")
            }
        }
    }

    // MARK: An account's posts

    @Test("an account's posts: filters, visibility, Link header and pages")
    func statuses() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, _) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        let (_, carolToken) = try await t.user("carol")
        let first = try await t.node.posts.create(.init(text: "Harbour #boats"), by: alice)
        let photo = try await t.node.database.writeSQL { db in
            var media = MediaAttachment(accountId: alice.id)
            media.filePath = "photos/x.jpg"
            return try media.inserted(db)
        }
        let withPhoto = try await t.node.posts.create(.init(text: "Pier", mediaIds: [photo.id]), by: alice)
        let reply = try await t.node.posts.create(.init(text: "Nice", inReplyToId: first.id), by: bob)
        let ownReply = try await t.node.posts.create(.init(text: "More boats", inReplyToId: first.id), by: alice)
        let privatePost = try await t.node.posts.create(.init(text: "Followers only", visibility: .private), by: alice)
        _ = reply
        try await t.node.interactions.follow(alice, by: bob)
        try await t.withClient { client in
            func ids(_ path: String, token: String? = nil) async throws -> [String] {
                let r = try await client.api(.get, path, token: token)
                #expect(r.status == .ok, "\(path)")
                return (r.jsonArray ?? []).compactMap { $0["id"] as? String }
            }
            let base = "/api/v1/accounts/\(alice.id)/statuses"
            let everything = [privatePost, ownReply, withPhoto, first].map { String($0.id) }
            #expect(try await ids(base, token: bobToken) == everything)
            #expect(try await ids(base) == Array(everything.dropFirst()))
            #expect(try await ids(base, token: carolToken) == Array(everything.dropFirst()))
            #expect(try await ids(base + "?only_media=true", token: bobToken) == [String(withPhoto.id)])
            #expect(try await ids(base + "?exclude_replies=true") == [ownReply, withPhoto, first].map { String($0.id) })
            #expect(try await ids(base + "?tagged=boats") == [String(first.id)])
            #expect(try await ids(base + "?pinned=true").isEmpty)

            let page = try await client.api(.get, base + "?limit=2", token: bobToken)
            #expect((page.jsonArray ?? []).count == 2)
            let link = try #require(page.headers[.link])
            #expect(link.contains("max_id=\(ownReply.id)") && link.contains("rel=\"next\""))
            #expect(link.contains("min_id=\(privatePost.id)") && link.contains("limit=2"))
            #expect(try await ids(base + "?limit=2&max_id=\(ownReply.id)", token: bobToken) == [withPhoto, first].map { String($0.id) })
            #expect(try await ids(base + "?min_id=\(withPhoto.id)", token: bobToken) == [privatePost, ownReply].map { String($0.id) })
            #expect(try await client.api(.get, "/api/v1/accounts/999/statuses").status == .notFound)
        }
    }

    // MARK: Followers and following

    @Test("followers and following list accepted follows, newest first, paged by follow id")
    func followersAndFollowing() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, _) = try await t.user("alice")
        let (bob, _) = try await t.user("bob")
        let (carol, _) = try await t.user("carol")
        let (dave, _) = try await t.user("dave")
        let bobFollow = try await t.node.interactions.follow(alice, by: bob)
        let carolFollow = try await t.node.interactions.follow(alice, by: carol)
        try await t.node.interactions.follow(carol, by: alice)
        var locked = dave
        locked.locked = true
        let pendingDave = locked
        try await t.node.database.writeSQL { try pendingDave.update($0) }
        try await t.node.interactions.follow(pendingDave, by: alice)
        try await t.withClient { client in
            let followers = try await client.api(.get, "/api/v1/accounts/\(alice.id)/followers")
            #expect(followers.status == .ok)
            #expect((followers.jsonArray ?? []).map { $0["username"] as? String } == ["carol", "bob"])
            let link = try #require(followers.headers[.link])
            #expect(link.contains("max_id=\(bobFollow.id)") && link.contains("min_id=\(carolFollow.id)"))
            let firstPage = try await client.api(.get, "/api/v1/accounts/\(alice.id)/followers?limit=1")
            #expect((firstPage.jsonArray ?? []).map { $0["username"] as? String } == ["carol"])
            let next = try await client.api(.get, "/api/v1/accounts/\(alice.id)/followers?limit=1&max_id=\(carolFollow.id)")
            #expect((next.jsonArray ?? []).map { $0["username"] as? String } == ["bob"])
            let following = try await client.api(.get, "/api/v1/accounts/\(alice.id)/following")
            #expect((following.jsonArray ?? []).map { $0["username"] as? String } == ["carol"], "the pending request to dave is left out")
            #expect(try await client.api(.get, "/api/v1/accounts/0/followers").status == .notFound)
        }
    }

    @Test("a viewer the account blocks sees none of its posts, followers or following")
    func blockedViewer() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        let (carol, _) = try await t.user("carol")
        _ = try await t.node.posts.create(.init(text: "Public photo"), by: alice)
        try await t.node.interactions.follow(alice, by: carol)
        try await t.node.interactions.follow(carol, by: alice)
        try await t.withClient { client in
            #expect(try await client.api(.post, "/api/v1/accounts/\(bob.id)/block", token: aliceToken).status == .ok)
            for list in ["statuses", "followers", "following"] {
                let seen = try await client.api(.get, "/api/v1/accounts/\(alice.id)/\(list)", token: bobToken)
                #expect(seen.status == .ok)
                #expect(seen.jsonArray?.isEmpty == true, "\(list)")
                #expect((try await client.api(.get, "/api/v1/accounts/\(alice.id)/\(list)").jsonArray ?? []).count == 1, "\(list) anonymously")
            }
            let search = try await client.api(.get, "/api/v2/search?q=ali&type=accounts", token: bobToken)
            #expect((search.json?["accounts"] as? [Any])?.isEmpty == true)
        }
    }

    // MARK: Helpers

    /// A remote account row as resolution would store it.
    static func remoteAccount(_ username: String, domain: String, discoverable: Bool = true, in t: TestNode) async throws -> Account {
        var account = Account(username: username, domain: domain, uri: "https://\(domain)/users/\(username)")
        account.url = "https://\(domain)/@\(username)"
        account.inboxUrl = "https://\(domain)/users/\(username)/inbox"
        account.sharedInboxUrl = "https://\(domain)/inbox"
        account.discoverable = discoverable
        account.fetchedAt = Date()
        let row = account
        try await t.node.database.writeSQL { try row.insert($0) }
        return row
    }
}

/// Hex SHA-256, as profile images are named.
private func sha256Hex(_ data: Data) -> String {
    Digest.sha256Hex(Array(data))
}
