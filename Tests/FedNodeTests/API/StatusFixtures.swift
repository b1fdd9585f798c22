@testable import Core
import Foundation
import GRDB
import Hummingbird
import Signatures
import HummingbirdTesting
import Storage
@testable import FedNode

/// Shared steps of the statuses, media and timelines suites.
enum StatusFixtures {
    /// Posts `text` through the API and returns the new status id.
    static func post(_ client: any TestClientProtocol, token: String, _ text: String, visibility: String = "public",
                     extra: [String: Any] = [:]) async throws -> String {
        let response = try await client.api(.post, "/api/v1/statuses", token: token,
                                            json: (["status": text, "visibility": visibility] as [String: Any]).merging(extra) { $1 })
        guard response.status == .ok, let id = response.json?["id"] as? String else {
            throw NodeError.internal("posting failed: \(response.status) \(response.text)")
        }
        return id
    }

    /// Reads from `node`'s database synchronously (outside any request).
    static func read<T>(_ node: Node, _ body: (SQLSession) throws -> T) throws -> T { try node.database.readSQL(body) }

    /// The ids of a list response, in order.
    static func ids(_ response: TestResponse) -> [String] { (response.jsonArray ?? []).compactMap { $0["id"] as? String } }

    /// A remote account stored as if resolved from `domain`.
    static func remoteAccount(_ username: String, domain: String = "remote.example", in node: Node) async throws -> Account {
        try await node.database.writeSQL { db in
            var account = Account(username: username, domain: domain, uri: "https://\(domain)/users/\(username)")
            account.inboxUrl = "https://\(domain)/users/\(username)/inbox"
            account.sharedInboxUrl = "https://\(domain)/inbox"
            account.followersUrl = "https://\(domain)/users/\(username)/followers"
            return try account.inserted(db)
        }
    }

    /// A public remote post by `author`, stored as the inbox would store it.
    static func remotePost(by author: Account, text: String, hashtags: [String] = [], in node: Node) async throws -> Post {
        try await node.database.writeSQL { db in
            let id = Snowflake.next()
            var post = Post(id: id, uri: author.uri + "/statuses/\(id)", accountId: author.id, local: false)
            post.content = "<p>\(text)</p>"
            try PostWriter.insert(post, media: [], hashtags: hashtags, mentions: [], in: Transaction(db))
            return post
        }
    }

    /// A real PNG (a gradient) of the given size.
    static func png(width: Int, height: Int) -> Data {
        // libvips encoding an in-memory gradient cannot fail short of a broken install.
        try! RealImages.png(width: width, height: height)
    }

    /// Uploads `bytes` as `file` to `/api/v2/media`.
    static func upload(_ client: any TestClientProtocol, token: String?, bytes: Data, description: String? = nil,
                       focus: String? = nil, path: String = "/api/v2/media") async throws -> TestResponse {
        var body = MultipartBody()
        if let description { body.field("description", description) }
        if let focus { body.field("focus", focus) }
        body.file("file", filename: "photo.png", contentType: "image/png", bytes: bytes)
        let (buffer, contentType) = body.finished()
        var headers: HTTPFields = [.contentType: contentType]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: path, method: .post, headers: headers, body: buffer)
    }

    /// Uploads a PNG and returns the attachment id.
    static func uploadedMedia(_ client: any TestClientProtocol, token: String, description: String = "A harbour") async throws -> String {
        let response = try await upload(client, token: token, bytes: png(width: 640, height: 480), description: description)
        guard response.status == .ok, let id = response.json?["id"] as? String else {
            throw NodeError.internal("upload failed: \(response.status) \(response.text)")
        }
        return id
    }

    /// Hex SHA-256, as uploads are named.
    static func sha256Hex(_ data: Data) -> String { Digest.sha256Hex(Array(data)) }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
