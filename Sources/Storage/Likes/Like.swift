import Foundation
import GRDB

/// `accountId` likes (favourites) `postId`.
public struct Like: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "likes"
    /// Snowflake id.
    public var id: Int64
    /// The liker.
    public var accountId: Int64
    /// The liked post.
    public var postId: Int64
    /// The Like activity's id.
    public var uri: String?
    /// When it was liked.
    public var createdAt: Date

    /// Creates a like row.
    public init(id: Int64 = Snowflake.next(), accountId: Int64, postId: Int64, uri: String?, createdAt: Date = Date()) {
        self.id = id
        self.accountId = accountId
        self.postId = postId
        self.uri = uri
        self.createdAt = createdAt
    }
}

extension Like {
    /// The `likes` row (hand-written: see Shared/Record.swift).
    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["account_id"] = accountId
        container["post_id"] = postId
        container["uri"] = uri
        container["created_at"] = createdAt
    }
}
