import Foundation
import GRDB

/// A hashtag, unique ignoring case; the first spelling seen is kept.
public struct Hashtag: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "hashtags"
    /// Snowflake id.
    public var id: Int64
    /// Name without the `#`.
    public var name: String
    /// First use on this node.
    public var createdAt: Date

    /// Creates a hashtag row.
    public init(id: Int64 = Snowflake.next(), name: String, createdAt: Date = Date()) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
    }
}

/// Links a post to one of its hashtags.
public struct PostHashtag: Record, Equatable {
    /// Table name.
    public static let databaseTableName = "post_hashtags"
    /// The tagged post.
    public var postId: Int64
    /// The hashtag.
    public var hashtagId: Int64

    /// Creates a link row.
    public init(postId: Int64, hashtagId: Int64) {
        self.postId = postId
        self.hashtagId = hashtagId
    }
}

extension PostHashtag {
    /// The `post_hashtags` row (hand-written: see Shared/Record.swift).
    public func encode(to container: inout PersistenceContainer) {
        container["post_id"] = postId
        container["hashtag_id"] = hashtagId
    }
}

extension Hashtag {
    /// The `hashtags` row (hand-written: see Shared/Record.swift).
    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["name"] = name
        container["created_at"] = createdAt
    }
}
