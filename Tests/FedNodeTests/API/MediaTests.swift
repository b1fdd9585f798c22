@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

@Suite("Media API")
struct APIMediaTests {
    @Test("an upload is stored by its hash and answered as a MediaAttachment")
    func upload() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, token) = try await t.user("alice")
        let bytes = StatusFixtures.png(width: 1200, height: 800)
        try await t.withClient { client async throws in
            let r = try await StatusFixtures.upload(client, token: token, bytes: bytes, description: "The pier", focus: "0.5,-0.25")
            #expect(r.status == .ok)
            let media = try r.entity(APIMediaAttachment.self)
            #expect(media.type == "image")
            #expect(media.description == "The pier")
            #expect(media.meta.original == .init(width: 1200, height: 800))
            #expect(media.meta.focus == .init(x: 0.5, y: -0.25))
            #expect(media.meta.small == .init(width: 500, height: 500))
            #expect(media.blurhash?.count ?? 0 > 6)
            // The display image and thumbnail are processed JPEGs, content-addressed.
            let row = try #require(try StatusFixtures.read(t.node) { try MediaAttachment.fetchOne($0, key: Int64(media.id)!) })
            #expect(row.accountId == alice.id)
            #expect(row.postId == nil)
            #expect(row.contentType == "image/jpeg")
            let path = try #require(row.filePath)
            #expect(path.range(of: #"^[0-9a-f]{2}/[0-9a-f]{2}/[0-9a-f]{64}\.jpg$"#, options: .regularExpression) != nil, "\(path)")
            #expect(media.url == "http://social.test/media/\(path)")
            #expect(media.previewUrl == "http://social.test/media/\(try #require(row.thumbnailPath))")
            let onDisk = try Data(contentsOf: URL(fileURLWithPath: t.dataDirectory + "/media/" + path))
            #expect(onDisk.prefix(3) == Data([0xFF, 0xD8, 0xFF]))
            #expect(row.fileSize == onDisk.count)
            #expect(path.contains(StatusFixtures.sha256Hex(onDisk)))
            // The older v1 path takes the same upload; the same bytes are stored once.
            let v1 = try await StatusFixtures.upload(client, token: token, bytes: bytes, path: "/api/v1/media")
            #expect(v1.status == .ok)
            #expect(v1.json?["url"] as? String == media.url)
            #expect(v1.json?["id"] as? String != media.id)
        }
    }

    @Test("an unattached upload is deleted; an attached one, or anyone else's, is not")
    func deleteUpload() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        try await t.withClient { client in
            let loose = try await StatusFixtures.uploadedMedia(client, token: token)
            let used = try await StatusFixtures.uploadedMedia(client, token: token)
            _ = try await StatusFixtures.post(client, token: token, "Harbour", extra: ["media_ids": [used]])
            #expect(try await client.api(.delete, "/api/v1/media/\(loose)", token: bobToken).status == .notFound)
            let deleted = try await client.api(.delete, "/api/v1/media/\(loose)", token: token)
            #expect(deleted.status == .ok)
            #expect(deleted.text == "{}")
            #expect(try await client.api(.get, "/api/v1/media/\(loose)", token: token).status == .notFound)
            #expect(try await client.api(.delete, "/api/v1/media/\(loose)", token: token).status == .notFound)
            let attached = try await client.api(.delete, "/api/v1/media/\(used)", token: token)
            #expect(attached.status == .unprocessableContent)
            #expect(try await client.api(.get, "/api/v1/media/\(used)", token: token).status == .ok)
        }
    }

    @Test("uploads need write:media")
    func uploadAuth() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, readOnly) = try await t.user("alice", scopes: "read write:statuses")
        try await t.withClient { client async throws in
            let bytes = StatusFixtures.png(width: 10, height: 10)
            #expect(try await StatusFixtures.upload(client, token: nil, bytes: bytes).status == .unauthorized)
            #expect(try await StatusFixtures.upload(client, token: readOnly, bytes: bytes).status == .forbidden)
        }
        #expect(try StatusFixtures.read(t.node) { try MediaAttachment.fetchCount($0) } == 0)
    }

    @Test("files that are not images, truncated or too large are refused with nothing stored")
    func invalidUploads() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        var oversized = StatusFixtures.png(width: 10, height: 10)
        oversized.append(Data(count: UploadStore.maxBytes))
        let truncated = try RealImages.jpeg(width: 64, height: 64)
        let cases: [Data] = [
            Data("just some text, not a photo".utf8),
            Data([0x25, 0x50, 0x44, 0x46, 0x2D, 0x31, 0x2E, 0x37] + [UInt8](repeating: 0, count: 64)),
            StatusFixtures.png(width: 10, height: 10).prefix(14),
            truncated.prefix(truncated.count / 2),
            Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]),
            oversized,
        ]
        try await t.withClient { client async throws in
            for bytes in cases {
                let r = try await StatusFixtures.upload(client, token: token, bytes: bytes)
                #expect(r.status == .unprocessableContent)
                #expect((r.json?["error"] as? String)?.hasPrefix("Validation failed: ") == true, "\(r.json ?? [:])")
            }
            let badFocus = try await StatusFixtures.upload(client, token: token, bytes: StatusFixtures.png(width: 4, height: 4), focus: "2,0")
            #expect(badFocus.status == .unprocessableContent)
            let noFile = try await client.api(.post, "/api/v2/media", token: token, form: "description=nothing")
            #expect(noFile.status == .unprocessableContent)
            #expect(noFile.json?["error"] as? String == "Validation failed: File can't be blank")
        }
        #expect(try StatusFixtures.read(t.node) { try MediaAttachment.fetchCount($0) } == 0)
        let stored = FileManager.default.enumerator(atPath: t.dataDirectory + "/media")?.allObjects.compactMap { $0 as? String } ?? []
        #expect(stored.filter { $0.contains(".") }.isEmpty)
    }

    @Test("GET and PUT /api/v1/media/:id for the owner only")
    func showAndUpdate() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        try await t.withClient { client async throws in
            let id = try await StatusFixtures.uploadedMedia(client, token: token, description: "before")
            let shown = try await client.api(.get, "/api/v1/media/\(id)", token: token)
            #expect(shown.status == .ok)
            #expect(shown.json?["description"] as? String == "before")
            #expect(try await client.api(.get, "/api/v1/media/\(id)", token: bobToken).status == .notFound)
            #expect(try await client.api(.get, "/api/v1/media/\(id)").status == .unauthorized)
            let updated = try await client.api(.put, "/api/v1/media/\(id)", token: token, json: ["description": "after", "focus": "-1,1"])
            #expect(updated.status == .ok)
            let media = try updated.entity(APIMediaAttachment.self)
            #expect(media.description == "after")
            #expect(media.meta.focus == .init(x: -1, y: 1))
            #expect(try await client.api(.put, "/api/v1/media/\(id)", token: bobToken, json: ["description": "mine"]).status == .notFound)
            let long = try await client.api(.put, "/api/v1/media/\(id)", token: token, json: ["description": String(repeating: "d", count: 1501)])
            #expect(long.status == .unprocessableContent)
            #expect(try await client.api(.get, "/api/v1/media/\(id)", token: token).json?["description"] as? String == "after")
            // Once attached, alt text changes through an edit of the post.
            _ = try await StatusFixtures.post(client, token: token, "with photo", extra: ["media_ids": [id]])
            #expect(try await client.api(.put, "/api/v1/media/\(id)", token: token, json: ["description": "late"]).status == .notFound)
        }
    }

    @Test("stored files are served with type, hash ETag, long caching, 304 and ranges")
    func serving() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        try await t.withClient { client async throws in
            let upload = StatusFixtures.png(width: 20, height: 10)
            let url = try #require(try await StatusFixtures.upload(client, token: token, bytes: upload).json?["url"] as? String)
            let path = String(url.dropFirst("http://social.test".count))
            let bytes = try Data(contentsOf: URL(fileURLWithPath: t.dataDirectory + path))
            let hash = StatusFixtures.sha256Hex(bytes)
            let r = try await client.execute(uri: path, method: .get)
            #expect(r.status == .ok)
            #expect(Data(buffer: r.body) == bytes)
            #expect(r.headers[.contentType] == "image/jpeg")
            #expect(r.headers[.eTag] == "\"\(hash)\"")
            #expect(r.headers[.cacheControl] == "public, max-age=31536000, immutable")
            let cached = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: "\"other\", \"\(hash)\""])
            #expect(cached.status == .notModified)
            #expect(cached.body.readableBytes == 0)
            let stale = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: "\"other\""])
            #expect(stale.status == .ok)
            let head = try await client.execute(uri: path, method: .get, headers: [.range: "bytes=0-7"])
            #expect(head.status == .partialContent)
            #expect(Data(buffer: head.body) == bytes.prefix(8))
            #expect(head.headers[.contentRange] == "bytes 0-7/\(bytes.count)")
            let tail = try await client.execute(uri: path, method: .get, headers: [.range: "bytes=-4"])
            #expect(tail.status == .partialContent)
            #expect(Data(buffer: tail.body) == bytes.suffix(4))
            let open = try await client.execute(uri: path, method: .get, headers: [.range: "bytes=\(bytes.count - 2)-"])
            #expect(Data(buffer: open.body) == bytes.suffix(2))
            let past = try await client.execute(uri: path, method: .get, headers: [.range: "bytes=\(bytes.count)-"])
            #expect(past.status == .rangeNotSatisfiable)
            #expect(past.headers[.contentRange] == "bytes */\(bytes.count)")
            let several = try await client.execute(uri: path, method: .get, headers: [.range: "bytes=0-1,4-5"])
            #expect(several.status == .ok)
        }
    }

    @Test("paths leaving the media directory are 404")
    func traversal() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let profile = t.dataDirectory + "/media/profile"
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: profile + "/avatar-1.jpg"))
        try await t.withClient { client async throws in
            _ = try await StatusFixtures.uploadedMedia(client, token: token)
            for path in ["/media/../fednode.sqlite", "/media/%2e%2e/fednode.sqlite", "/media/..%2ffednode.sqlite",
                         "/media/profile/../../fednode.sqlite", "/media/%2fetc%2fpasswd", "/media//etc/passwd", "/media/profile",
                         "/media/nothing.png", "/media/"] {
                let r = try await client.execute(uri: path, method: .get)
                #expect(r.status == .notFound, "\(path)")
                #expect(r.body.readableBytes < 100, "\(path)")
            }
            // Profile images stored by the accounts area are served too.
            let avatar = try await client.execute(uri: "/media/profile/avatar-1.jpg", method: .get)
            #expect(avatar.status == .ok)
            #expect(avatar.headers[.contentType] == "image/jpeg")
        }
    }

    @Test("a post's photos federate as Documents with URL, type, size, alt text and focal point")
    func federatedAttachments() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        try await t.withClient { client async throws in
            let upload = try await StatusFixtures.upload(client, token: token, bytes: StatusFixtures.png(width: 300, height: 200),
                                                         description: "Boats", focus: "0.1,0.2")
            let media = try upload.entity(APIMediaAttachment.self)
            let id = try await StatusFixtures.post(client, token: token, "harbour", extra: ["media_ids": [media.id]])
            let note = try await client.execute(uri: "/users/alice/statuses/\(id)", method: .get, headers: [.accept: "application/activity+json"])
            #expect(note.status == .ok)
            let attachments = try #require(note.json?["attachment"] as? [[String: Any]])
            #expect(attachments.count == 1)
            let document = try #require(attachments.first)
            #expect(document["type"] as? String == "Document")
            #expect(document["url"] as? String == media.url)
            #expect((document["url"] as? String)?.hasPrefix("http://social.test/media/") == true)
            #expect(document["mediaType"] as? String == "image/jpeg")
            #expect(document["blurhash"] as? String == media.blurhash)
            #expect(document["width"] as? Int == 300)
            #expect(document["height"] as? Int == 200)
            #expect(document["name"] as? String == "Boats")
            #expect(document["focalPoint"] as? [Double] == [0.1, 0.2])
        }
    }
}
